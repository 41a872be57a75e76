# contrib/: (filled by its owner)
