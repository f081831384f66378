"""Tablewire's server: the rules engine (``server.engine``) and the shells around it."""
