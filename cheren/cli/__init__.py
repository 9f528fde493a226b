"""The ``cheren`` command (:func:`cheren.cli.main.main`)."""
