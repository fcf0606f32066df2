"""Test-wide settings: no resident solver answers a test unless the test starts its own
(a developer's running ``patience server`` must not decide what the tests see)."""

import os

os.environ["PATIENCE_SERVER"] = "off"
