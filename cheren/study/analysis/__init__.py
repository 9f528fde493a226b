"""Questions asked of a position, answered from the engine's own functions: the report of a
position (:mod:`.report`), play-out evaluation (:mod:`.evaluate`), supply reports
(:mod:`.supply_report`), charts and the comparison of rule variants."""
