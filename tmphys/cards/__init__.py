"""The deck as geometry: layout files, punch cards and verification cards, stacks, the machine, design-rule checks."""
