"""Manoeuvre's analyses: its studies' tables, charts and pages."""
