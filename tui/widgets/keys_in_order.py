"""Keys handled in the order they came, by a box that binds some of them itself (Ctrl+U, Ctrl+E, Enter...).

Textual runs a focused widget's own bindings only once the key has bubbled up to the app, one message queue
per ancestor later, while the keys typed after it go straight into the box: a burst (a fast typist, a paste)
was reordered, so Ctrl+U then 35 left the box empty and Ctrl+E then W typed the W before the move."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from textual.widget import Widget

    class _Box(Widget):
        """What the mixin uses of Input and TextArea."""

        def _restart_blink(self) -> None: ...
else:   # a mixin, not a Widget: a Widget base between a subclass and Input hides Input's component classes
    _Box = object


class OwnKeysInOrder(_Box):
    """Mixed in before an Input or a TextArea: it runs its own (not priority) bindings as it handles the key."""

    async def _on_key(self, event: events.Key) -> None:
        self._restart_blink()   # as the box does for every key (tui.widgets.settling_cursor)
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()   # nor typed by the box, nor run again by the app
                return
