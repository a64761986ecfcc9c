"""Budgets and compile_context: what reaches the model each turn."""
