"""The study layer: position analysis (:mod:`.analysis`), overlays for the map
(:mod:`.overlays`), the variation tree (:mod:`.variations`), what a click on the map means in
the game's terms (:mod:`.map_intents`, shared by the app and the lessons) and the course
(:mod:`.lessons`)."""
