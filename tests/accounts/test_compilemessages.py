import polib
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import trans_real

from accounts.management.commands.compilemessages_py import compile_catalog


def test_polib_compiles_translated_entries_and_leaves_fuzzy_ones_out(tmp_path):
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": "nplurals=1; plural=0;"}
    po.append(polib.POEntry(msgid="Settings", msgstr="設定"))
    po.append(polib.POEntry(msgid="Guess", msgstr="推測", flags=["fuzzy"]))
    po_path = tmp_path / "django.po"
    po.save(str(po_path))

    mo_path, count = compile_catalog(po_path=po_path)
    assert count == 1
    compiled = {entry.msgid: entry.msgstr for entry in polib.mofile(str(mo_path))}
    assert compiled["Settings"] == "設定" and "Guess" not in compiled


def test_the_committed_catalogs_compile_and_translate_our_strings(capsys):
    call_command("compilemessages_py")
    assert "locale/ja/LC_MESSAGES/django.mo" in capsys.readouterr().out
    trans_real._translations = {}  # read the freshly written .mo files
    for language, expected in {"ja": "設定", "zh-hant": "設定", "fr": "Réglages"}.items():
        with translation.override(language):
            assert translation.gettext("Settings") == expected
