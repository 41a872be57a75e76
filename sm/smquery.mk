# sm/: (filled by its owner)
