"""Questions asked of a position, answered from the engine's own functions: overlays for the
map (:mod:`.overlays`), the exact what-if of an attack (:mod:`.combat`) and supply reports
(:mod:`.supply`)."""
