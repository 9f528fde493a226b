"""The Keren key: the features of the battle of Cheren named on the map where they lie.

The features (Sanchil, Brig's Peak, Samanna and Cameron Ridge west of the Dongolaas gorge;
Dologorodoc, Falestoh, Zeban and Acqua Col east of it; the Mescelit pass and the Engiahat to the
north-east; the Asmara road) are data in the scenario's ``keren_key.yaml``, each with its source
and the reason for its hex.  The map is a reconstruction at 12.5 km a hex: the battlefield lies
within a few kilometres of the town, so several features share a hex, and the file says so.

:func:`keren_key` reads and checks the file (every hex on the map, every citation in the key's
own source list); :func:`cheren.study.overlays.keren_key_overlays` draws it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, model_validator

from cheren.hexes import Hex
from cheren.scenario.compiled import Scenario
from cheren.scenario.errors import Problem, ScenarioError
from cheren.scenario.loader import validate_model
from cheren.scenario.models import Provenance, Strict
from cheren.scenario.safe_yaml import YamlInputError, load_file

FILE = "keren_key.yaml"
HexText = Annotated[str, Field(pattern=r"^\d{4}$")]


class FeatureModel(Strict):
    name: str = Field(min_length=1)
    hex: HexText | None = Field(None, description="the hex the feature lies in")
    path: list[HexText] | None = Field(None, description="for a road: its hexes in order")
    where: str = Field(min_length=1, description="where it lies, relative to the gorge and the town")
    what: str = Field(min_length=1, description="what happened there")
    source: str = Field(pattern=r"^\[.+\]$", description="a citation in brackets: [Key, chapter]")
    placement: Provenance = Field(description="'historical: source' or 'reconstructed: reason' for the hex")

    @model_validator(mode="after")
    def _one_place(self) -> FeatureModel:
        if (self.hex is None) == (self.path is None):
            raise ValueError("give a feature either a hex or a path, not both or neither")
        return self


class KerenKeyModel(Strict):
    sources: list[str] = Field(min_length=1, description="'Key: Author, *Title* (chapter)'")
    features: list[FeatureModel] = Field(min_length=1)


@dataclass(frozen=True)
class Feature:
    number: int
    name: str
    hexes: tuple[Hex, ...]  # one hex, or a road's hexes in order
    where: str
    what: str
    source: str
    placement: Provenance

    @property
    def is_path(self) -> bool:
        return len(self.hexes) > 1

    @property
    def labels(self) -> str:
        return "-".join(h.label for h in self.hexes)


@dataclass(frozen=True)
class KerenKey:
    sources: tuple[str, ...]
    features: tuple[Feature, ...]

    def by_hex(self) -> dict[Hex, list[Feature]]:
        """The features lying in each hex (roads excluded), in the key's order."""
        out: dict[Hex, list[Feature]] = {}
        for f in self.features:
            if not f.is_path:
                out.setdefault(f.hexes[0], []).append(f)
        return out

    def shared(self) -> dict[Hex, list[Feature]]:
        """The hexes holding more than one feature: the scale of the map at work."""
        return {h: fs for h, fs in self.by_hex().items() if len(fs) > 1}

    def find(self, name: str) -> Feature:
        for f in self.features:
            if f.name.casefold() == name.casefold():
                return f
        raise KeyError(f"the Keren key has no feature {name!r}")


def keren_key(scenario: Scenario) -> KerenKey:
    """The scenario's Keren key, checked: a :class:`ScenarioError` names each problem by file and
    field."""
    path = Path(scenario.directory) / FILE
    problems: list[Problem] = []
    try:
        data: Any = load_file(path, FILE)
    except YamlInputError as exc:
        raise ScenarioError([Problem(FILE, None, str(exc).removeprefix(f"{FILE}: "))]) from None
    model = validate_model(KerenKeyModel, data, FILE, problems)
    if model is None:
        raise ScenarioError(problems)
    keys = [s.split(": ", 1)[0] for s in model.sources if ": " in s]
    if len(keys) != len(model.sources):
        problems.append(Problem(FILE, "sources", "write each source as 'Key: Author, *Title* (chapter)'"))
    features = []
    for i, f in enumerate(model.features):
        where = f"features[{i}] ({f.name})"
        labels = [f.hex] if f.hex is not None else list(f.path or [])
        hexes = tuple(Hex.from_label(label) for label in labels)
        for label, h in zip(labels, hexes, strict=True):
            if h not in scenario.playable:
                problems.append(Problem(FILE, where, f"{label} is not a playable hex of the map", label))
        for cite in f.source.strip("[]").split(";"):
            cite = " ".join(cite.split())
            if not any(cite == k or cite.startswith(k + ",") or cite.startswith(k + " ") for k in keys):
                problems.append(Problem(FILE, f"{where}.source", f"cites [{cite}], which is not in the key's sources"))
        features.append(Feature(i + 1, f.name, hexes, f.where, f.what, f.source, f.placement))
    if problems:
        raise ScenarioError(problems)
    return KerenKey(tuple(model.sources), tuple(features))
