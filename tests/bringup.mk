# tests/: (filled by its owner)
