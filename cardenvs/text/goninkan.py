"""Goninkan and Yoninkan in a few sentences (the text seat's rules summary)."""

RULES = """You play Goninkan / Yoninkan, a Tsugaru trick-taking card game with a trump suit and a joker.
Two players are kankei (partners): the holders of the joker and of the trump ace (in Yoninkan the partner is
hidden until revealed by play). Players must follow the suit led if they can; the highest trump, else the
highest card of the suit led, takes the trick (the joker and special cards follow the game's own order).
The 16 honours (A K Q J) in the tricks decide the round: the kankei side tries to take 9 of them, the others
try to stop it. Declarations and lead choices appear as moves when the rules allow them."""
