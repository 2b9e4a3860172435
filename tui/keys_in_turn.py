"""Keys handed on one at a time: a key goes to whoever has the keyboard once the key before it has been handled
in full, whatever bound it, and any change of focus it made has been applied.

Textual gives each key to the focused widget the moment it reaches the app, but runs the bindings of the
widget, the screen and the app only once the key has bubbled back up, one message queue per ancestor later,
and a binding that moves the keyboard (Widget.focus) does so later still (App.call_later). The keys behind it
in a burst (a fast typist, a paste) had by then gone to the widget that had the keyboard before: Escape then h
in the answer box typed the h into it, and `i` then `1e3` on an exercise's page lost the e."""

from __future__ import annotations

from collections import deque

from textual import events
from textual.app import App
from textual.message_pump import MessagePump


class KeysInTurn(App):
    """The app's side of the rule: it holds a key (or a paste) while the one before it is on its way."""

    def __init__(self) -> None:
        super().__init__()
        self._waiting: deque[events.Key | events.Paste] = deque()
        self._key_on_its_way = False

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, (events.Key, events.Paste)) or event.is_forwarded:
            await super().on_event(event)
            return
        if self._key_on_its_way:
            self._waiting.append(event)
            return
        self._key_on_its_way = True
        await super().on_event(event)
        # Forwarded, it is on its way up from the widget it went to; else the app handled it (a priority key).
        self._behind_the_key((self.focused or self.screen) if event.is_forwarded else self)

    def _behind_the_key(self, node: MessagePump) -> None:
        """Queue at `node`, behind the key, the step that follows it up; a node closing ends the way there."""
        if not node.call_later(self._followed, node):
            self.call_later(self._next_key)

    def _followed(self, node: MessagePump) -> None:
        """`node` has handled the key (or stopped it): on to its parent, as the key bubbles. At the app, the
        next key waits once more, for what the key's binding asked the app to do (a focus change)."""
        if node is self:
            self.call_later(self._next_key)
        else:
            self._behind_the_key(node._parent or self)

    async def _next_key(self) -> None:
        self._key_on_its_way = False
        if self._waiting:
            await self.on_event(self._waiting.popleft())
