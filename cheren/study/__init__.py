"""The study layer: position analysis (:mod:`.analysis`), overlays for the map
(:mod:`.overlays`), the variation tree (:mod:`.variations`) and the course (:mod:`.lessons`)."""
