"""Live push: a change from the tap to every phone (``changes``), this process's streams by
table (``hub``), the version every phone's view is drawn from (``versions``), the regions drawn
once per kind of viewer (``regions``) and one phone's stream of them (``stream``)."""
