"""The data-driven effect engine of A.I.Pokalypse: vocabulary, static modifiers, resolution."""
