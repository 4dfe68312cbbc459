from __future__ import annotations

import pytest

from graphgate.core.text import (
    claims_of,
    content_word_set,
    content_words,
    first_sentence,
    normalise_name,
    page_keys,
    sentence_spans,
    terminated,
)


def test_claims_split_back_into_what_was_joined() -> None:
    claims = [
        "Scrooge employs Bob Cratchit.",
        'Marley said "Hear me!"',
        "Fred and Scrooge are mentioned together 3 times",
        "The firm is Scrooge and Marley (a counting-house).",
    ]
    joined = " ".join(terminated(c) for c in claims)
    assert claims_of(joined) == [terminated(c) for c in claims]
    assert terminated("no end") == "no end." and terminated("an end!") == "an end!"


def test_sentence_spans_are_exact() -> None:
    text = (
        "  Scrooge counts money.\nBob works!  Tim is ill?\n\nClerks\n- 1843-1844 : Bob Cratchit"
        "\n* 1844 : Ann Lee\nThe clerk was paid by the\nweek, and poorly.\n\nAnd then"
    )
    spans = list(sentence_spans(text))
    # A paragraph's last line and a list item's line end a sentence even without an end mark;
    # a hard-wrapped sentence runs on over its line break.
    assert [text[a:b] for a, b in spans] == [
        "Scrooge counts money.",
        "Bob works!",
        "Tim is ill?",
        "Clerks",
        "- 1843-1844 : Bob Cratchit",
        "* 1844 : Ann Lee",
        "The clerk was paid by the\nweek, and poorly.",
        "And then",
    ]


# Prose wrapped at a fixed width by three tools' rules: the sentences are the same however the
# lines fall, a capital or a quote opening the next line included.
_PROSE = (
    "Old Marley was as dead as a door-nail. Scrooge never painted out Old Marley's name. "
    "There it stood, years afterwards, above the warehouse door: Scrooge and Marley. "
    "'Bah!' said Scrooge, 'Humbug!' The firm was known as Scrooge and Marley, and Mrs. "
    'Cratchit said so to Tim Cratchit ("Tiny Tim"), a cripple, who bore a little crutch.'
)


@pytest.mark.parametrize("width", [38, 55, 70, 79])
def test_a_hard_wrapped_sentence_is_one_sentence(width: int) -> None:
    import textwrap

    wrapped = textwrap.fill(_PROSE, width)
    assert "\n" in wrapped
    found = [" ".join(wrapped[a:b].split()) for a, b in sentence_spans(wrapped)]
    assert found == [" ".join(wrapped[a:b].split()) for a, b in sentence_spans(_PROSE)]
    assert found[-1].startswith("The firm was known as Scrooge and Marley, and Mrs. Cratchit")
    assert len(found) == 5


def test_a_short_line_ends_its_sentence() -> None:
    """A heading, a verse or an address line stops short of the paragraph's width: it is a
    sentence of its own, unless a lower-case word carries it on."""
    text = (
        "STAVE ONE\nMarley was dead, to begin with; there is no doubt whatever about\n"
        "that, for the register of his burial was signed by the clergyman\n"
        "and the clerk.\nBob Cratchit\n12 Camden Town\nGod bless us,\nevery one"
    )
    assert [" ".join(text[a:b].split()) for a, b in sentence_spans(text)] == [
        "STAVE ONE",
        "Marley was dead, to begin with; there is no doubt whatever about that, for the "
        "register of his burial was signed by the clergyman and the clerk.",
        "Bob Cratchit",
        "12 Camden Town",
        "God bless us, every one",
    ]


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        (  # a firm's "Inc.," inside its sentence; the pronoun's sentence after it
            "Zorvex Network is owned by Zorvex, Inc., a unit of Halbrook Media. It was founded"
            " by Mira Tal in 1992.",
            [
                "Zorvex Network is owned by Zorvex, Inc., a unit of Halbrook Media.",
                "It was founded by Mira Tal in 1992.",
            ],
        ),
        (  # decimals, initials, dotted initials, titles and numbered things
            "Brauhaus sold 6.21 million hectolitres. J. R. Quill met Dr. Osei in the U.S. Navy"
            " at St. Louis. It ranked No. 4 on Sept. 12, 1990. Then it fell.",
            [
                "Brauhaus sold 6.21 million hectolitres.",
                "J. R. Quill met Dr. Osei in the U.S. Navy at St. Louis.",
                "It ranked No. 4 on Sept. 12, 1990.",
                "Then it fell.",
            ],
        ),
        (  # closing quotes stay with their sentence; a lower-case word continues it
            '"Run!" cried the two boys. "Stop?" She did. The title "Why Not?" is a song.',
            [
                '"Run!" cried the two boys.',
                '"Stop?"',
                "She did.",
                'The title "Why Not?" is a song.',
            ],
        ),
        (  # a year after a year's sentence, and a firm's "Inc." that ends one
            "It closed in 1990. 1991 was quiet. Shares of Corvel Inc. The firm grew.",
            ["It closed in 1990.", "1991 was quiet.", "Shares of Corvel Inc.", "The firm grew."],
        ),
        (" . 5 left. Done.", [".", "5 left.", "Done."]),  # a mark with no word before it
    ],
)
def test_sentences_end_where_a_sentence_ends(text: str, sentences: list[str]) -> None:
    assert [text[a:b] for a, b in sentence_spans(text)] == sentences


def test_first_sentence_skips_abbreviations_and_initials() -> None:
    assert first_sentence("Mr. Fezziwig danced. Then he slept.") == "Mr. Fezziwig danced."
    assert first_sentence("J. R. Smith wrote it. Later.") == "J. R. Smith wrote it."


def test_words_and_names() -> None:
    assert content_words("Who founded the companies?") == ["founded", "company"]
    assert normalise_name("The Acme Corp.") == "acme"


def test_a_page_is_also_the_page_of_its_title_less_a_qualifier() -> None:
    assert page_keys("Robert Young (musician)") == ["robert young musician", "robert young"]
    assert page_keys("The Dandy Warhols") == ["dandy warhols"]
    assert page_keys("Annual report (2023) draft") == ["annual report 2023 draft"]  # not trailing
    assert page_keys("(film)") == ["film"]
    assert page_keys("") == []


def test_content_word_set_is_the_set_of_content_words() -> None:
    texts = [
        "The companies' companies were founded by Companies House in 1999, and the 3 classes...",
        "Scrooge and Marley are mentioned together 3 times.",
        "",
        "Ça va? Müller's cafés: the Glasses, the bosses, series",
    ]
    for text in texts:
        assert content_word_set(text) == set(content_words(text))
    assert content_word_set("the companies of classes") == {"company", "class"}


def test_normalise_name_fast_path_for_ascii_agrees_with_decomposition() -> None:
    # An ASCII name takes a shortcut; the decomposed form of the same letters must agree.
    for ascii_name, accented in [("Cafe Muller", "Café Müller"), ("Jose's Co", "José's Co")]:
        assert normalise_name(ascii_name) == normalise_name(accented)
    assert normalise_name("The  Walt-Disney Company, Inc.") == "walt disney"


# Items of a list, each a sentence, one with a dash inside it: wrapped at any width, each item
# is still one sentence, and the dash that opens a wrapped line opens no item.
_ITEMS = [
    "Six catches for 163 yards and a touchdown against Carolina left Tom Vik with 812 yards,",
    "A 40-yard run against Dallas in the fourth quarter — the longest of his career — sealed "
    "the win for the visitors.",
    "Named player of the month for October by the league.",
]


@pytest.mark.parametrize("marker", ["•", "-", "*"])
@pytest.mark.parametrize("width", [40, 42, 52, 60, 79, 80])
def test_a_wrapped_list_item_is_one_sentence(marker: str, width: int) -> None:
    import textwrap

    lines = ["His season so far:"]
    for item in _ITEMS:
        lines += textwrap.wrap(f"{marker} {item}", width, break_on_hyphens=False)
    text = "\n".join(lines)
    assert len(lines) > 1 + len(_ITEMS)  # some item was wrapped
    found = [" ".join(text[a:b].split()) for a, b in sentence_spans(text)]
    assert found == ["His season so far:", *(f"{marker} {item}" for item in _ITEMS)]


def test_an_item_runs_on_only_where_its_line_was_wrapped() -> None:
    """Indented under its marker, or carried on by a lower-case word: one item. A short row
    ends at its line ("- 1994: Ann Lee" then a heading); a dash after a line that ends its
    sentence opens an item."""
    text = (
        "- Ann Lee chaired the board,\n  then the council.\n- Bo Vik chaired it\nuntil 1999.\n"
        "- 1994: Ann Lee\nCareer\nThe winners were these.\n— 1994: Ann Lee\n— 1995: Bo Vik"
    )
    assert [" ".join(text[a:b].split()) for a, b in sentence_spans(text)] == [
        "- Ann Lee chaired the board, then the council.",
        "- Bo Vik chaired it until 1999.",
        "- 1994: Ann Lee",
        "Career",
        "The winners were these.",
        "— 1994: Ann Lee",
        "— 1995: Bo Vik",
    ]
