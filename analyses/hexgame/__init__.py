"""Maneuver's analyses (the introductory hex wargame): its studies' tables, charts, pages and report section."""
