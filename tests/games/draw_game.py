"""The suite's Ziehen is pbem's example game now (``pbem/games/ziehen``); the server's
tests import it from here, as they did when it lived in this file."""

from pbem.games.ziehen import CARDS, GAME, ROUNDS, TURN, Ziehen

__all__ = ["CARDS", "GAME", "ROUNDS", "TURN", "Ziehen"]
