"""Loading and validation of the game's facts: armies, map sections, terrain."""

from manoeuvre_sim.manoeuvre.model.army import HQ_TYPES, Army, HQEntry, Leader, Unit, UnitCard
from manoeuvre_sim.manoeuvre.model.load import (
    builtin_army_paths,
    data_dir,
    find_army,
    load_army,
    load_builtin_armies,
    load_map_pool,
    load_sections,
    load_terrain,
    sections_hash,
)
from manoeuvre_sim.manoeuvre.model.maps import MapSection, Terrain, TerrainTable

__all__ = [
    "HQ_TYPES",
    "Army",
    "HQEntry",
    "Leader",
    "MapSection",
    "Terrain",
    "TerrainTable",
    "Unit",
    "UnitCard",
    "builtin_army_paths",
    "data_dir",
    "find_army",
    "load_army",
    "load_builtin_armies",
    "load_map_pool",
    "load_sections",
    "load_terrain",
    "sections_hash",
]
