"""A labelled set of (query, memory) pairs for recall's semantic floor.

Recall's semantic arm returns the stored items nearest the query whatever their distance, so
an unrelated question would fill the recall channel with the least distant memories. The floor
(``[recall] min_similarity``) is the cosine under which an item that only the semantic arm
found is left out; ``benchmarks/relevance.py`` suggests one for an embedder from these pairs:

- ``related``: the memory answers the query or is plainly about it, and they share no content
  word (so only the semantic arm can find it): paraphrase, a category and its instance, another
  language.
- ``unrelated``: the memory has nothing to do with the query (another domain), as when a user
  asks a general question of an agent whose memory is about their projects.

``held_out`` marks every third pair, never looked at while choosing the floor. Written by hand
for memstrata; the people, projects and numbers are invented.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RelevancePair:
    query: str
    memory: str
    related: bool
    held_out: bool


_RELATED = [
    ("what coffee does she order", "Ann drinks a flat white with oat milk"),
    ("beverage preferences of the design lead", "Ann drinks a flat white with oat milk"),
    ("timezone bug", "Fixed the flaky login test by building expiry dates in UTC"),
    ("vacation spot", "We spent the summer holidays on the beach in Portugal"),
    ("where did we go on holiday", "Spent two weeks in Lisbon and the Algarve in August"),
    ("pets", "Our dog Biscuit is a three-year-old beagle"),
    ("what animal do they have at home", "Our dog Biscuit is a three-year-old beagle"),
    ("food allergies", "Priya cannot eat peanuts; carry an epinephrine pen on team dinners"),
    ("which database does the billing service use", "Payments data lives in PostgreSQL 16"),
    ("deployment schedule", "Releases ship every Thursday after the change review"),
    ("how do we deploy to production", "Releases ship every Thursday after the change review"),
    ("favourite sport", "Plays tennis every Sunday morning at the club"),
    ("music taste", "Listens mostly to jazz, especially Bill Evans and Chet Baker"),
    ("kids", "Her son Tom starts primary school in September"),
    ("family", "Her son Tom starts primary school in September"),
    ("which editor", "Uses Neovim with the LazyVim configuration"),
    ("programming language preference", "Prefers Rust for services and Python for scripts"),
    ("monthly cloud spend", "The AWS bill came to 4,200 dollars in October"),
    ("budget for the team retreat", "Offsite costs are capped at 15,000 euros for 20 people"),
    ("hobbies", "Spends weekends restoring old film cameras"),
    ("reading list", "Currently halfway through The Left Hand of Darkness"),
    ("workout routine", "Runs 5 km three mornings a week before work"),
    ("diet", "Has been vegetarian since 2019"),
    ("commute", "Takes the 7:40 train from Utrecht to Amsterdam"),
    ("performance regression", "Checkout latency doubled after the ORM upgrade"),
    ("security incident", "An API key leaked in a public gist and was rotated within an hour"),
    ("咖啡", "Ann drinks a flat white with oat milk"),
    ("她喝什么", "Ann drinks a flat white with oat milk"),
    ("夏天去哪里度假", "We spent the summer holidays on the beach in Portugal"),
    ("宠物", "Our dog Biscuit is a three-year-old beagle"),
    ("用什么数据库", "Payments data lives in PostgreSQL 16"),
    ("孩子上学", "Her son Tom starts primary school in September"),
    ("what does Li Na like", "李娜喜欢手冲咖啡，不喝奶咖"),
    ("where does she work", "李娜在上海办公室工作，负责支付网关"),
    ("运动爱好", "每个周日早上在俱乐部打网球"),
    ("饮食习惯", "从二零一九年开始吃素"),
]

_UNRELATED = [
    ("what is the capital of France", "Ann drinks a flat white with oat milk"),
    ("what is the capital of France", "We spent the summer holidays on the beach in Portugal"),
    ("stock market news", "We spent the summer holidays on the beach in Portugal"),
    ("write a haiku about autumn", "Reviews go faster when the agenda is shared the day before"),
    ("how do I reverse a list in python", "Ann drinks a flat white with oat milk"),
    ("what's the weather tomorrow", "Payments data lives in PostgreSQL 16"),
    ("explain quantum entanglement", "Releases ship every Thursday after the change review"),
    ("translate good morning into German", "Our dog Biscuit is a three-year-old beagle"),
    ("who won the 1998 world cup", "Checkout latency doubled after the ORM upgrade"),
    ("recipe for banana bread", "The AWS bill came to 4,200 dollars in October"),
    ("how tall is Mount Everest", "Her son Tom starts primary school in September"),
    ("summarise the French revolution", "Uses Neovim with the LazyVim configuration"),
    ("convert 5 miles to kilometres", "Listens mostly to jazz, especially Bill Evans"),
    ("what is a monad", "Spends weekends restoring old film cameras"),
    ("best practices for password hashing", "Plays tennis every Sunday morning at the club"),
    ("how does photosynthesis work", "Prefers Rust for services and Python for scripts"),
    ("regex for an email address", "Has been vegetarian since 2019"),
    ("tell me a joke", "An API key leaked in a public gist and was rotated within an hour"),
    ("what year did the Berlin wall fall", "Runs 5 km three mornings a week before work"),
    ("how many bones in the human body", "Offsite costs are capped at 15,000 euros for 20 people"),
    ("sort a dictionary by value", "Takes the 7:40 train from Utrecht to Amsterdam"),
    ("what is inflation", "Currently halfway through The Left Hand of Darkness"),
    ("draft a cover letter", "Priya cannot eat peanuts; carry an epinephrine pen on team dinners"),
    ("difference between TCP and UDP", "Spent two weeks in Lisbon and the Algarve in August"),
    ("法国的首都是哪里", "Ann drinks a flat white with oat milk"),
    ("今天天气怎么样", "Payments data lives in PostgreSQL 16"),
    ("讲个笑话", "Our dog Biscuit is a three-year-old beagle"),
    ("什么是量子计算", "李娜喜欢手冲咖啡，不喝奶咖"),
    ("如何学习微积分", "每个周日早上在俱乐部打网球"),
    ("写一首关于秋天的诗", "李娜在上海办公室工作，负责支付网关"),
    ("what is the capital of France", "李娜喜欢手冲咖啡，不喝奶咖"),
    ("explain recursion", "从二零一九年开始吃素"),
    ("history of the Roman empire", "Her son Tom starts primary school in September"),
    ("how do vaccines work", "Releases ship every Thursday after the change review"),
    ("what is the speed of light", "Spends weekends restoring old film cameras"),
    ("best pizza toppings", "Checkout latency doubled after the ORM upgrade"),
]


def _pairs() -> list[RelevancePair]:
    labelled = [(q, m, True) for q, m in _RELATED] + [(q, m, False) for q, m in _UNRELATED]
    return [
        RelevancePair(query, memory, related, held_out=number % 3 == 2)
        for number, (query, memory, related) in enumerate(labelled)
    ]


PAIRS = _pairs()
