# db/: (filled by its owner)
