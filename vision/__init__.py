"""Camera card recognition: calibrate → locate → identify → stabilise.

The APIs other parts build on:

* :class:`vision.scanner.TableScanner` ``(model_path=None, calibration=None)`` with
  ``.scan(frame_bgr) -> TableReading``: per location (``engine.board.Location`` or its
  name) a ``LocationReading(state, top, confidence, depth)``; ``state`` is a ``Sight``:
  ``empty``, ``card``, ``occluded``, ``face_down``, ``unknown``. Results are pure; the
  scanner keeps only the calibration, re-detecting the ArUco markers every
  ``redetect_every`` scans and whenever they no longer show where they were, so a
  bumped camera is recalibrated at the first frame that shows its markers
  (``.moves`` counts the moves found).
* :class:`vision.stabilize.Stabilizer` ``.update(reading, t_seconds) -> list[StableChange]``
  (``added``, ``removed``, ``replaced``, ``occluded``, ``cleared``) and ``.state``.
* :func:`vision.synth.scene.render` ``(layout, rng, SceneOptions(...)) -> (frame, truth)``
  draws a table frame (1280×960 by default) from ``{location: [card ids oldest first]}``;
  :data:`vision.synth.cards.FACE_DOWN` and :data:`vision.synth.scene.FOREIGN` are layout
  entries too. :func:`vision.synth.scene.render_spread` draws cards laid out for scoring.
* :func:`vision.spread.find_cards` ``(frame, calibration) -> [(card id | None,
  confidence, quad)]`` finds every face-up card in the play area.
* :func:`vision.classifier.default_model_path` is the committed classifier;
  :class:`vision.classifier.CardClassifier` runs it; :func:`vision.enroll.enroll` builds
  a new head from photos without retraining.
* :class:`vision.calibrate.Calibration` (markers or four manual corners) converts to and
  from a plain dict for the device's config.

Training (``python -m vision.train``) needs the ``train`` extra (torch); nothing else
here imports torch.
"""
