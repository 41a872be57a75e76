# routing/: (filled by its owner)
