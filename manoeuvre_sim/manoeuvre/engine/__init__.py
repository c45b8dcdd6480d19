"""The game engine: fixed-shape integer state and the numba kernels of the rules."""
