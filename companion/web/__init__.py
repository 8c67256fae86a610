"""The web layer: the app factory (``app``), the views (``views``), the checks before every
view (``guards``, ``limits``), the error answers (``errors``), languages (``i18n``), the
security headers (``security``), the API's document (``openapi``), an operator's metrics
(``metrics``) and backups (``backup``), and the static files (``assets``)."""
