"""An independent settlement checker written from the rules reference (see ``settlement``)."""
