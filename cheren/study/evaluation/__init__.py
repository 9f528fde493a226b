"""The learned evaluation: the chance of each victory level of 14.0 for any position in a few
milliseconds (:mod:`.model`), from features the engine computes (:mod:`.features`), trained on
self-play (:mod:`.training`, ``cheren train-eval``), measured against play-outs
(:mod:`.calibration`), and a game's review, decision by decision (:mod:`.review`).

LightGBM is the ``eval`` extra; this package imports it only when a model is loaded or trained."""

from cheren.study.evaluation.features import feature_names, features
from cheren.study.evaluation.model import Chances, EvaluationModel, EvaluationUnavailable, load_model
from cheren.study.evaluation.review import Decision, Review, review

__all__ = [
    "Chances", "Decision", "EvaluationModel", "EvaluationUnavailable", "Review", "feature_names", "features",
    "load_model", "review",
]
