"""A DataTable whose rows can be replaced at the cost of those rows alone, for `ringbook class live`.

DataTable.update_cell counts an update, and every render cache of the table has that count in its keys: one
call, for one cell, has every visible cell rendered again (540 at 120x40, 85 ms of the UI thread for each
snapshot of a class whose files change a hundred times a second, when a snapshot changes a few rows, mostly
off the screen). `replace_rows` puts the new cells in, drops only those rows' entries from the caches and
repaints only their lines. It reads DataTable's caches as Textual 8.2 keeps them (textual is pinned in
uv.lock); tests/face/test_class_live.py checks that a replaced row shows its new cells and that the rows
around it are not rendered again, so an upgrade that moves them fails there.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey


class HeatTable(DataTable[Text]):
    def replace_rows(self, rows: dict[str, dict[str, Text]]) -> None:
        """Each row's cells (by row key, then column key) set to these; rows whose cells are all as they were
        are not repainted."""
        changed: set[RowKey] = set()
        for row_key, cells in rows.items():
            key = RowKey(row_key)
            row = self._data[key]
            for column, value in cells.items():
                if not _same(row.get(ColumnKey(column)), value):
                    row[ColumnKey(column)] = value
                    changed.add(key)
        if not changed:
            return
        indexes = {self._row_locations.get(key) for key in changed}
        for cell in [k for k in self._cell_render_cache.keys() if k[0] in changed]:
            self._cell_render_cache.discard(cell)
        for row_lines in [k for k in self._row_render_cache.keys() if k[0] in changed]:
            self._row_render_cache.discard(row_lines)
        for renderables in [k for k in self._row_renderable_cache.keys() if k[1] in indexes]:
            self._row_renderable_cache.discard(renderables)
        for line in [k for k in self._line_cache.keys() if self._row_at_line(k[0]) in changed]:
            self._line_cache.discard(line)
        for index in indexes:
            if index is not None:
                self.refresh_row(index)

    def _row_at_line(self, y: int) -> RowKey | None:
        try:
            return self._get_offsets(y)[0]
        except LookupError:
            return None


def _same(old: object, new: Text) -> bool:
    """Rich's Text compares its characters and spans, not its own style: a cell's style is its news too."""
    return isinstance(old, Text) and (old.plain, old.style, old.spans, old.justify) == \
        (new.plain, new.style, new.spans, new.justify)
