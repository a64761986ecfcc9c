"""The folded view the rules read, and the character sets the detectors share.

An attacker spells an instruction so that a plain regex misses it: full-width or mathematical
letters, Cyrillic and Greek look-alikes, small capitals, invisible format characters, curly
quotes. ``_fold`` undoes all of these at once (NFKC, look-alikes mapped to Latin, invisibles
removed, case folded), so one set of lowercase ASCII rules sees through them. The invisible and
look-alike characters are defined here because the hidden-character detector flags the very
characters the fold removes; the CJK range, because the matcher and the decoder both ask it.
"""

from __future__ import annotations

import re
import unicodedata

_INVISIBLE = (
    "\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\ufff9\ufffa\ufffb"
)
_LOOKALIKES = "аеорсухіјѕԁһӏԛѡɡοαειкνρτυχАВЕКМНОРСТХІЈЅ"

_CONFUSABLES = {
    ord(src): dst
    for src, dst in zip(
        _LOOKALIKES + "‘’‚‛“”„‟′″ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀꜱᴛᴜᴠᴡʏᴢ",
        "aeopcyxijsdhlqwgoaeikvptuxABEKMHOPCTXIJS''''\"\"\"\"'\"abcdefghijklmnopqrstuvwyz",
        strict=True,
    )
}
_FOLD_TABLE = {**_CONFUSABLES, **dict.fromkeys(map(ord, _INVISIBLE))}
_FOLD_CHARS = re.compile("[" + "".join(map(chr, _FOLD_TABLE)) + "]")
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _fold(text: str) -> str:
    """NFKC, look-alikes to Latin, invisibles removed, quotes straightened, case folded."""
    if text.isascii():
        return text.lower()
    if not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    for char in set(_FOLD_CHARS.findall(text)):
        text = text.replace(char, _FOLD_TABLE[ord(char)] or "")
    return text.casefold()
