"""Players: what one side may know (:mod:`.views`), the bots that act through the gate
(:mod:`.bots`), and batch play-outs on processes or a Dask cluster (:mod:`.simulate`)."""
