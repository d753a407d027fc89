# The package's public face: `from folio_client import Folio, FolioApiError, verify_webhook` and
# the typed results, so callers never depend on how the modules are split. The results are the
# names types.py lists as its own, taken as they are rather than listed again here.
from . import types as _types
from .client import FileInput, Folio, __version__
from .errors import FolioApiError
from .types import *  # noqa: F403 (types.__all__ says what it exports)
from .webhooks import verify_webhook

__all__ = ["FileInput", "Folio", "FolioApiError", "__version__", "verify_webhook", *_types.__all__]
