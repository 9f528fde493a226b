"""The rules, one module per rule area, each citing its rule numbers.  Nothing here imports a
widget or renderer library."""
