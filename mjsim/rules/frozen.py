"""FrozenTable: the read-only, hashable mapping behind Ruleset's table options."""

from __future__ import annotations

from collections.abc import Iterator, Mapping


class FrozenTable(Mapping):
    """An immutable ``str -> int`` mapping that is hashable and picklable.

    It compares equal to any mapping with the same items (order does not
    matter), so ``ruleset.fan == {"chicken": 0, ...}`` works.  Not a
    ``MappingProxyType`` because that can be neither hashed nor pickled
    (loky sends rulesets to worker processes).
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping | None = None) -> None:
        object.__setattr__(self, "_items", dict(items or {}))

    def __setattr__(self, name, value):
        raise AttributeError("FrozenTable is read-only")

    def __getitem__(self, key: str) -> int:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __eq__(self, other) -> bool:
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenTable({self._items!r})"

    def __reduce__(self):
        return (FrozenTable, (self._items,))

    def to_dict(self) -> dict[str, int]:
        """A plain (mutable) copy."""
        return dict(self._items)
