"""Pictures of a table: a seat's view as data (:mod:`.view`) and as SVG (:mod:`.svg`)."""
