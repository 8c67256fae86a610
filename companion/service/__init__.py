"""The table service: the database (models, engine, migrations) and what is done with it,
without a request in sight: tables and their log (``tables``, ``history``), groups and their
plays (``groups``), statistics (``stats``), codes, text checks and the refusals (``errors``)."""
