#!/usr/bin/env python3
"""Writes `single_byte.rs` (next to this script) and `testdata/encodings/single-byte.txt`.

The single-byte encodings XML documents declare that the WHATWG Encoding Standard leaves
out (IBM PC code pages, the Mac encodings other than Roman and Cyrillic, ISO-8859-11 and
TIS-620, ...) are read by tables taken from CPython's codecs, which CPython generated from
Unicode's mapping files (MAPPINGS/VENDORS/MICSFT/PC, VENDORS/APPLE, ISO8859, VENDORS/MISC).
So are the labels WHATWG reads as another encoding than iconv and CPython do: ISO-8859-1
and ISO-8859-9 (WHATWG: windows-1252 and windows-1254), ISO-8859-11 and TIS-620
(windows-874) and KOI8-U (KOI8-RU): XML parsers (libxml2 through iconv, expat in CPython)
read them by their own tables.

Besides each table's labels (Python's aliases, iconv's names and a few vendors' spellings),
it writes the Python spellings of encodings that `encoding_rs` reads under other labels
(`MacCyrillic`, `mac_roman`, `cp932`, ...), and the oracle the tests compare with: every
byte each encoding defines, as CPython's codec decodes it.

Run it once with CPython 3.11 after changing the lists below:

    python3 formats/src/xml/encoding/gen_single_byte.py

Labels an XML declaration cannot hold (`437`, `ISO_8859-1:1987`) are left out. Labels are
compared as `normalize` leaves them: ASCII letters lowercased, everything but
letters and digits dropped (`IBM-855`, `ibm_855` and `IBM855` are one label).
"""

import codecs
import os
import re
import sys
from encodings import aliases

# (Rust name, CPython codec, labels besides CPython's aliases and the codec's own name).
TABLES = [
    ("ISO_8859_1", "latin_1", ["ISO-8859-1", "latin-1", "csISOLatin1"]),
    ("ISO_8859_9", "iso8859_9", ["ISO-8859-9"]),
    ("ISO_8859_11", "iso8859_11", ["ISO-8859-11", "ISO8859-11"]),
    ("TIS_620", "tis_620", ["TIS-620", "TIS620.2529-1", "TIS620.2533-0", "TIS620-0"]),
    ("IBM437", "cp437", ["IBM437", "IBM-437"]),
    ("IBM720", "cp720", ["IBM720", "DOS-720"]),
    ("IBM737", "cp737", ["IBM737"]),
    ("IBM775", "cp775", ["IBM775"]),
    ("IBM850", "cp850", ["IBM850"]),
    ("IBM852", "cp852", ["IBM852"]),
    ("IBM855", "cp855", ["IBM855", "csIBM855"]),
    ("IBM856", "cp856", ["IBM856", "csIBM856"]),
    ("IBM857", "cp857", ["IBM857"]),
    ("IBM858", "cp858", ["IBM00858", "CCSID00858", "CP00858", "csPC858Multilingual"]),
    ("IBM860", "cp860", ["IBM860"]),
    ("IBM861", "cp861", ["IBM861", "cp-is", "CPIBM861"]),
    ("IBM862", "cp862", ["IBM862", "DOS-862"]),
    ("IBM863", "cp863", ["IBM863"]),
    ("IBM864", "cp864", ["IBM864"]),
    ("IBM865", "cp865", ["IBM865"]),
    ("IBM869", "cp869", ["IBM869", "cp-gr"]),
    ("CP1006", "cp1006", ["IBM1006"]),
    ("CP1125", "cp1125", ["CP1125", "RUSCII"]),
    ("HP_ROMAN8", "hp_roman8", ["HP-ROMAN8", "csHPRoman8"]),
    ("KOI8_T", "koi8_t", ["KOI8-T"]),
    ("KOI8_U", "koi8_u", ["KOI8-U", "csKOI8U"]),
    ("KZ_1048", "kz1048", ["KZ-1048", "RK1048", "STRK1048-2002", "csKZ1048"]),
    ("PTCP154", "ptcp154", ["PTCP154", "PT154", "CP154", "csPTCP154", "Cyrillic-Asian"]),
    ("MAC_ARABIC", "mac_arabic", ["MacArabic", "x-mac-arabic"]),
    ("MAC_CROATIAN", "mac_croatian", ["MacCroatian", "x-mac-croatian"]),
    ("MAC_FARSI", "mac_farsi", ["MacFarsi", "x-mac-farsi"]),
    ("MAC_GREEK", "mac_greek", ["MacGreek", "x-mac-greek"]),
    ("MAC_ICELAND", "mac_iceland", ["MacIceland", "MacIcelandic", "x-mac-icelandic", "MAC-IS"]),
    (
        "MAC_LATIN2",
        "mac_latin2",
        ["MacCentralEurope", "MAC-CENTRALEUROPE", "x-mac-ce"],
    ),
    ("MAC_ROMANIAN", "mac_romanian", ["MacRomanian", "MacRomania", "x-mac-romanian"]),
    ("MAC_TURKISH", "mac_turkish", ["MacTurkish", "x-mac-turkish"]),
]

# CPython codecs that `encoding_rs` reads, by the WHATWG label it knows them by: their
# CPython spellings (and iconv's, for Mac Cyrillic) become labels of that encoding.
WHATWG = {
    "mac_cyrillic": "x-mac-cyrillic",
    "mac_roman": "macintosh",
    "cp866": "ibm866",
    "koi8_r": "koi8-r",
    "cp874": "windows-874",
    **{f"cp{n}": f"windows-{n}" for n in range(1250, 1259)},
    **{f"iso8859_{n}": f"iso-8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)},
    "shift_jis": "shift_jis",
    "cp932": "shift_jis",
    "euc_jp": "euc-jp",
    "iso2022_jp": "iso-2022-jp",
    "gbk": "gbk",
    "gb2312": "gbk",
    "gb18030": "gb18030",
    "big5": "big5",
    "big5hkscs": "big5",
    "euc_kr": "euc-kr",
    "cp949": "euc-kr",
    "utf_8": "utf-8",
}
WHATWG_EXTRA = {
    "mac_cyrillic": [
        "MacCyrillic",
        "MAC-CYRILLIC",
        "MacUkrainian",
        "MacUkraine",
        "MAC-UK",
        "MS-MAC-CYRILLIC",
    ],
    "mac_roman": ["MacRoman"],
}
# The single-byte ones, whose bytes the oracle lists too.
WHATWG_SINGLE_BYTE = [c for c in WHATWG if c.startswith(("mac_", "cp8", "cp12", "koi8", "iso8859"))]


def normalize(label):
    return "".join(c for c in label.lower() if c.isascii() and c.isalnum())


def decode(codec, byte):
    """The code point CPython's codec decodes `byte` to, or None when it defines none."""
    try:
        text = bytes([byte]).decode(codec)
    except UnicodeDecodeError:
        return None
    assert len(text) == 1 and ord(text) <= 0xFFFF and (ord(text) != 0 or byte == 0), (codec, byte)
    return ord(text)


def is_enc_name(label):
    """Whether an XML declaration can name `label` (`EncName ::= [A-Za-z] ([A-Za-z0-9._] | '-')*`)."""
    return re.fullmatch(r"[A-Za-z][A-Za-z0-9._-]*", label) is not None


def labels_of(codec, extra):
    spelled = extra + [codec] + [a for a, c in sorted(aliases.aliases.items()) if c == codec]
    seen, out = set(), []
    for label in spelled:
        key = normalize(label)
        if is_enc_name(label) and key not in seen:
            seen.add(key)
            out.append(label)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", "..", ".."))
    version = sys.version.split()[0]
    claimed = {}

    def claim(label, target):
        key = normalize(label)
        assert claimed.get(key, target) == target, (label, claimed[key], target)
        claimed[key] = target
        return key

    rs = [
        f"// Written by gen_single_byte.py from CPython {version}'s codecs: do not edit.",
        "",
        "use super::SingleByte;",
        "",
    ]
    oracle = [
        f"# Written by formats/src/xml/encoding/gen_single_byte.py from CPython {version}'s codecs.",
        "# One encoding a line: `<codec> <table|whatwg> <labels, comma-separated> | <byte>:<code point> ...`,",
        "# every byte the codec defines, as it decodes it (ASCII bytes only where they differ).",
    ]
    table_arms = []
    for name, codec, extra in TABLES:
        points = [decode(codec, b) for b in range(256)]
        low = [(b, p) for b, p in enumerate(points[:128]) if p != b]
        high = [p or 0 for p in points[128:]]
        labels = labels_of(codec, extra)
        keys = [claim(label, name) for label in labels]
        rs.append(f"/// `{codec}` in CPython.")
        rs.append(f"pub(super) static {name}: SingleByte = SingleByte {{")
        rs.append("    high: [")
        for row in range(0, 128, 8):
            rs.append("        " + " ".join(f"0x{p:04X}," for p in high[row : row + 8]))
        rs.append("    ],")
        rs.append("    low: &[" + ", ".join(f"(0x{b:02X}, 0x{p:04X})" for b, p in low) + "],")
        rs.append("};")
        rs.append("")
        table_arms.append((keys, name))
        pairs = " ".join(f"{b:02X}:{p:04X}" for b, p in enumerate(points) if p is not None and (b >= 128 or p != b))
        oracle.append(f"{codec} table {','.join(labels)} | {pairs}")
    whatwg_arms = {}
    for codec, target in WHATWG.items():
        labels = labels_of(codec, WHATWG_EXTRA.get(codec, []))
        keys = [claim(label, target) for label in labels]
        whatwg_arms.setdefault(target, []).extend(keys)
        if codec in WHATWG_SINGLE_BYTE:
            points = [decode(codec, b) for b in range(256)]
            pairs = " ".join(f"{b:02X}:{p:04X}" for b, p in enumerate(points) if p is not None and (b >= 128 or p != b))
            oracle.append(f"{codec} whatwg {','.join(labels)} | {pairs}")

    def arm(keys, value):
        patterns = " | ".join(f'"{k}"' for k in keys)
        return f"        {patterns} => {value},"

    rs.append("/// The table a label names, by its normalized spelling.")
    rs.append("pub(super) fn table(key: &str) -> Option<&'static SingleByte> {")
    rs.append("    Some(match key {")
    rs.extend(arm(keys, f"&{name}") for keys, name in table_arms)
    rs.append("        _ => return None,")
    rs.append("    })")
    rs.append("}")
    rs.append("")
    rs.append("/// The WHATWG label of the encoding `encoding_rs` reads a CPython or iconv spelling as.")
    rs.append("pub(super) fn whatwg_label(key: &str) -> Option<&'static str> {")
    rs.append("    Some(match key {")
    rs.extend(arm(keys, f'"{target}"') for target, keys in whatwg_arms.items())
    rs.append("        _ => return None,")
    rs.append("    })")
    rs.append("}")
    with open(os.path.join(here, "single_byte.rs"), "w") as f:
        f.write("\n".join(rs) + "\n")
    os.makedirs(os.path.join(root, "testdata", "encodings"), exist_ok=True)
    with open(os.path.join(root, "testdata", "encodings", "single-byte.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(oracle) + "\n")


if __name__ == "__main__":
    main()
