"""Time zones as people name them: "Tokyo", "new york", "東京" or "Europe/Paris", and the browser's own zone.

``find_zone`` maps what someone typed to an IANA zone name: the name itself (any capitalisation, spaces for
underscores), its city part ("Tokyo" is Asia/Tokyo), or a city or country that has no zone of its own, in the
site's four languages ("Osaka", "京都", "Pékin", "台北"). ``zone_options`` is the searchable list the settings page
offers (each zone with its city in the reader's language where we know it, and its offset from UTC now).
``profiles.services.set_from_browser`` gives an account the zone its browser reports (``Intl``) until its owner
chooses one.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
import zoneinfo
from functools import cache

from django.utils import timezone

# Zones people live in: a continent or ocean and a city (no legacy "Japan", "US/Eastern" or "Etc/GMT+9").
REGIONS = ("Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")

# Cities and countries a player may type that are not the city part of a zone, and zone cities written in the
# site's other languages. Keys are compared folded (``_fold``): case, accents, spaces and dashes do not matter.
ALIASES: dict[str, str] = {
    # Japan
    "Japan": "Asia/Tokyo", "東京": "Asia/Tokyo", "Osaka": "Asia/Tokyo", "大阪": "Asia/Tokyo",
    "Kyoto": "Asia/Tokyo", "京都": "Asia/Tokyo", "Nagoya": "Asia/Tokyo", "名古屋": "Asia/Tokyo",
    "Sapporo": "Asia/Tokyo", "札幌": "Asia/Tokyo", "Fukuoka": "Asia/Tokyo", "福岡": "Asia/Tokyo",
    "Yokohama": "Asia/Tokyo", "横浜": "Asia/Tokyo", "Kobe": "Asia/Tokyo", "神戸": "Asia/Tokyo",
    "Naha": "Asia/Tokyo", "那覇": "Asia/Tokyo", "Okinawa": "Asia/Tokyo", "沖縄": "Asia/Tokyo", "日本": "Asia/Tokyo",
    "Japon": "Asia/Tokyo", "東京都": "Asia/Tokyo",
    # Taiwan, Hong Kong, Macau, China
    "Taiwan": "Asia/Taipei", "台灣": "Asia/Taipei", "臺灣": "Asia/Taipei", "台湾": "Asia/Taipei",
    "台北": "Asia/Taipei", "臺北": "Asia/Taipei", "Kaohsiung": "Asia/Taipei", "高雄": "Asia/Taipei",
    "Taichung": "Asia/Taipei", "台中": "Asia/Taipei", "臺中": "Asia/Taipei", "Tainan": "Asia/Taipei",
    "台南": "Asia/Taipei", "臺南": "Asia/Taipei", "新北": "Asia/Taipei", "桃園": "Asia/Taipei",
    "Hongkong": "Asia/Hong_Kong", "香港": "Asia/Hong_Kong", "澳門": "Asia/Macau", "マカオ": "Asia/Macau",
    "China": "Asia/Shanghai", "Chine": "Asia/Shanghai", "中国": "Asia/Shanghai", "中國": "Asia/Shanghai",
    "Beijing": "Asia/Shanghai", "Peking": "Asia/Shanghai", "Pékin": "Asia/Shanghai", "北京": "Asia/Shanghai",
    "上海": "Asia/Shanghai", "Guangzhou": "Asia/Shanghai", "廣州": "Asia/Shanghai", "広州": "Asia/Shanghai",
    "Shenzhen": "Asia/Shanghai", "深圳": "Asia/Shanghai",
    # Elsewhere in Asia and Oceania
    "Korea": "Asia/Seoul", "Corée": "Asia/Seoul", "ソウル": "Asia/Seoul", "首爾": "Asia/Seoul", "Busan": "Asia/Seoul",
    "Séoul": "Asia/Seoul", "韓国": "Asia/Seoul", "韓國": "Asia/Seoul",
    "シンガポール": "Asia/Singapore", "新加坡": "Asia/Singapore", "Singapour": "Asia/Singapore",
    "バンコク": "Asia/Bangkok", "曼谷": "Asia/Bangkok", "India": "Asia/Kolkata", "Inde": "Asia/Kolkata",
    "Delhi": "Asia/Kolkata", "New Delhi": "Asia/Kolkata", "Mumbai": "Asia/Kolkata", "Bombay": "Asia/Kolkata",
    "Bangalore": "Asia/Kolkata", "Bengaluru": "Asia/Kolkata", "Chennai": "Asia/Kolkata", "Calcutta": "Asia/Kolkata",
    "Hanoi": "Asia/Ho_Chi_Minh", "Hà Nội": "Asia/Ho_Chi_Minh", "Saigon": "Asia/Ho_Chi_Minh",
    "Manila": "Asia/Manila", "マニラ": "Asia/Manila",
    "シドニー": "Australia/Sydney", "雪梨": "Australia/Sydney", "悉尼": "Australia/Sydney",
    "Canberra": "Australia/Sydney", "メルボルン": "Australia/Melbourne", "墨爾本": "Australia/Melbourne",
    "Wellington": "Pacific/Auckland", "New Zealand": "Pacific/Auckland", "Nouvelle-Zélande": "Pacific/Auckland",
    "Nouméa": "Pacific/Noumea", "Tahiti": "Pacific/Tahiti", "Papeete": "Pacific/Tahiti",
    # Europe
    "France": "Europe/Paris", "パリ": "Europe/Paris", "巴黎": "Europe/Paris", "Lyon": "Europe/Paris",
    "Marseille": "Europe/Paris", "Toulouse": "Europe/Paris", "Nice": "Europe/Paris", "Bordeaux": "Europe/Paris",
    "Lille": "Europe/Paris", "Nantes": "Europe/Paris", "Strasbourg": "Europe/Paris", "Rennes": "Europe/Paris",
    "Montpellier": "Europe/Paris", "Grenoble": "Europe/Paris", "フランス": "Europe/Paris", "法國": "Europe/Paris",
    "England": "Europe/London", "Angleterre": "Europe/London", "United Kingdom": "Europe/London",
    "Royaume-Uni": "Europe/London", "Londres": "Europe/London", "ロンドン": "Europe/London", "倫敦": "Europe/London",
    "Manchester": "Europe/London", "Edinburgh": "Europe/London", "Édimbourg": "Europe/London",
    "Germany": "Europe/Berlin", "Allemagne": "Europe/Berlin", "ベルリン": "Europe/Berlin", "柏林": "Europe/Berlin",
    "Munich": "Europe/Berlin", "München": "Europe/Berlin", "Frankfurt": "Europe/Berlin", "Hamburg": "Europe/Berlin",
    "Cologne": "Europe/Berlin", "Köln": "Europe/Berlin",
    "Belgium": "Europe/Brussels", "Belgique": "Europe/Brussels", "Bruxelles": "Europe/Brussels",
    "Liège": "Europe/Brussels", "Suisse": "Europe/Zurich", "Switzerland": "Europe/Zurich",
    "Genève": "Europe/Zurich", "Geneva": "Europe/Zurich", "Lausanne": "Europe/Zurich", "Bern": "Europe/Zurich",
    "Berne": "Europe/Zurich", "Spain": "Europe/Madrid", "Espagne": "Europe/Madrid", "Barcelona": "Europe/Madrid",
    "Barcelone": "Europe/Madrid", "Italy": "Europe/Rome", "Italie": "Europe/Rome", "Rome": "Europe/Rome",
    "Milan": "Europe/Rome", "Milano": "Europe/Rome", "Venice": "Europe/Rome", "Venise": "Europe/Rome",
    "Florence": "Europe/Rome", "Naples": "Europe/Rome", "Netherlands": "Europe/Amsterdam",
    "Pays-Bas": "Europe/Amsterdam", "Lisbonne": "Europe/Lisbon", "Portugal": "Europe/Lisbon",
    "Moscou": "Europe/Moscow", "Varsovie": "Europe/Warsaw", "Vienne": "Europe/Vienna", "Wien": "Europe/Vienna",
    "Prague": "Europe/Prague", "Athènes": "Europe/Athens", "Copenhague": "Europe/Copenhagen",
    "Luxembourg": "Europe/Luxembourg", "Monaco": "Europe/Monaco",
    # Africa
    "Alger": "Africa/Algiers", "Tunis": "Africa/Tunis", "Rabat": "Africa/Casablanca", "Le Caire": "Africa/Cairo",
    "Dakar": "Africa/Dakar", "Kinshasa": "Africa/Kinshasa", "Abidjan": "Africa/Abidjan",
    # The Americas
    "New York City": "America/New_York", "NYC": "America/New_York", "ニューヨーク": "America/New_York",
    "紐約": "America/New_York", "Washington": "America/New_York", "Washington DC": "America/New_York",
    "Boston": "America/New_York", "Philadelphia": "America/New_York", "Atlanta": "America/New_York",
    "Miami": "America/New_York", "Montreal": "America/Toronto", "Montréal": "America/Toronto",
    "Québec": "America/Toronto", "Quebec": "America/Toronto", "Ottawa": "America/Toronto",
    "Chicago": "America/Chicago", "Houston": "America/Chicago", "Dallas": "America/Chicago",
    "Austin": "America/Chicago", "Denver": "America/Denver", "Phoenix": "America/Phoenix",
    "San Francisco": "America/Los_Angeles", "Seattle": "America/Los_Angeles", "Portland": "America/Los_Angeles",
    "San Diego": "America/Los_Angeles", "Las Vegas": "America/Los_Angeles", "Silicon Valley": "America/Los_Angeles",
    "ロサンゼルス": "America/Los_Angeles", "洛杉磯": "America/Los_Angeles", "舊金山": "America/Los_Angeles",
    "サンフランシスコ": "America/Los_Angeles", "Hawaii": "Pacific/Honolulu", "Hawaï": "Pacific/Honolulu",
    "ハワイ": "Pacific/Honolulu", "夏威夷": "Pacific/Honolulu", "Rio": "America/Sao_Paulo",
    "Rio de Janeiro": "America/Sao_Paulo", "Brasilia": "America/Sao_Paulo", "Brasília": "America/Sao_Paulo",
    "Martinique": "America/Martinique", "Guadeloupe": "America/Guadeloupe", "Cayenne": "America/Cayenne",
    # UTC
    "GMT": "UTC", "Coordinated Universal Time": "UTC", "協定世界時": "UTC", "世界標準時": "UTC",
}

# City names shown beside the zone in each language, for the cities players most often look for (the zone's own
# English city name is always searchable).
CITY_NAMES: dict[str, dict[str, str]] = {
    "Asia/Tokyo": {"ja": "東京", "zh-hant": "東京", "fr": "Tokyo"},
    "Asia/Taipei": {"ja": "台北", "zh-hant": "臺北", "fr": "Taipei"},
    "Asia/Hong_Kong": {"ja": "香港", "zh-hant": "香港", "fr": "Hong Kong"},
    "Asia/Shanghai": {"ja": "上海・北京", "zh-hant": "上海、北京", "fr": "Shanghai, Pékin"},
    "Asia/Seoul": {"ja": "ソウル", "zh-hant": "首爾", "fr": "Séoul"},
    "Asia/Singapore": {"ja": "シンガポール", "zh-hant": "新加坡", "fr": "Singapour"},
    "Asia/Macau": {"ja": "マカオ", "zh-hant": "澳門", "fr": "Macao"},
    "Europe/Paris": {"ja": "パリ", "zh-hant": "巴黎", "fr": "Paris"},
    "Europe/London": {"ja": "ロンドン", "zh-hant": "倫敦", "fr": "Londres"},
    "Europe/Berlin": {"ja": "ベルリン", "zh-hant": "柏林", "fr": "Berlin"},
    "Europe/Brussels": {"ja": "ブリュッセル", "zh-hant": "布魯塞爾", "fr": "Bruxelles"},
    "Europe/Zurich": {"ja": "チューリッヒ", "zh-hant": "蘇黎世", "fr": "Zurich, Genève"},
    "America/New_York": {"ja": "ニューヨーク", "zh-hant": "紐約", "fr": "New York"},
    "America/Los_Angeles": {"ja": "ロサンゼルス", "zh-hant": "洛杉磯", "fr": "Los Angeles"},
    "America/Toronto": {"ja": "トロント", "zh-hant": "多倫多", "fr": "Toronto, Montréal"},
    "Australia/Sydney": {"ja": "シドニー", "zh-hant": "雪梨", "fr": "Sydney"},
    "Pacific/Honolulu": {"ja": "ホノルル", "zh-hant": "檀香山", "fr": "Honolulu"},
}


def _fold(text: str) -> str:
    """Compared without case, accents, spaces, underscores or dashes: "são paulo" is "Sao_Paulo"."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text or "").casefold())
    return "".join(ch for ch in text if not unicodedata.combining(ch) and ch not in " _-.'’")


@cache
def all_zone_names() -> frozenset[str]:
    """Every zone name the server knows (what the settings accept and store)."""
    return frozenset(zoneinfo.available_timezones())


@cache
def listed_zone_names() -> tuple[str, ...]:
    """The zones offered in the list: a region and a place, and UTC."""
    names = (name for name in all_zone_names() if name.split("/", 1)[0] in REGIONS)
    return ("UTC", *sorted(names))


@cache
def _index() -> dict[str, str]:
    """Folded names of the listed zones, then their city parts (the first zone wins), then the aliases, then the
    legacy names ("Japan" is Asia/Tokyo by its alias; "Singapore" the listed Asia/Singapore), each to its zone."""
    index: dict[str, str] = {}
    for name in listed_zone_names():
        index.setdefault(_fold(name), name)
    for name in listed_zone_names():
        index.setdefault(_fold(name.rsplit("/", 1)[-1]), name)
    for alias, name in ALIASES.items():
        index.setdefault(_fold(alias), name)
    for name in sorted(all_zone_names()):
        index.setdefault(_fold(name), name)
    return index


def find_zone(text: str) -> str | None:
    """The zone ``text`` names ("Tokyo", "asia/tokyo", "東京", "New York"), or ``None``."""
    text = (text or "").strip()
    if not text:
        return None
    if text in listed_zone_names():
        return text
    # "Tokyo (UTC+09:00)" or "Asia/Tokyo — 東京" as the list shows it: the zone before any decoration.
    for separator in (" — ", " (", " · "):
        head = text.split(separator, 1)[0].strip()
        if head != text and (found := find_zone(head)):
            return found
    return _index().get(_fold(text))


def utc_offset(name: str, *, at: dt.datetime | None = None) -> str:
    """"UTC+09:00", the zone's offset now (or ``at``)."""
    offset = (at or timezone.now()).astimezone(zoneinfo.ZoneInfo(name)).utcoffset() or dt.timedelta()
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "−"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def zone_label(name: str, *, language: str) -> str:
    """How the list shows a zone: its place in the reader's language where known, and its offset now."""
    local = CITY_NAMES.get(name, {}).get((language or "en").lower())
    place = local or name.rsplit("/", 1)[-1].replace("_", " ")
    return f"{place} · {utc_offset(name)}"


def zone_options(*, language: str) -> list[tuple[str, str]]:
    """(zone, label) for the searchable list, the zones players look for most first."""
    known = [name for name in CITY_NAMES if name in all_zone_names()]
    rest = [name for name in listed_zone_names() if name not in CITY_NAMES]
    return [(name, zone_label(name, language=language)) for name in (*known, *rest)]
