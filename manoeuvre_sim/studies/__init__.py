"""The studies, written once over the games registry (issue 31; DESIGN.md, "The house for
two games"): what a study does with a game's blocks of games, whichever game it is.

``rounds``: a balance study's pairings played round after round, a fixed number of games
or until a precision goal (both games' balance studies); ``tournament``: every pair of
players in the seats a game gives them, scored from the first player's view (Manoeuvre's
``tournament`` and ``hex tournament``).
"""
