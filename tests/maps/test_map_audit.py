"""The historian's audit of the map of 1756 (issue 15, docs/map-audit.md), held as tests.

Each test names a fact of 1756 and checks it on the bundled map, from true coordinates written
here (not from the generator's facts, which are what is being checked): where Komorn and Loitz
are, who owned each disputed area, which bank each fortress stands on, which towns the roads pass
through, where the period had a bridge and where only a ferry, the islands, lakes and hill ranges.
The last tests hold the facts files themselves: every road runs through every town it lists, no
road passes a city by without a written reason, every crossing has a type and a source.
"""

import tomllib
from pathlib import Path

import pytest

from maps.core.hexgrid import DIRECTIONS, direction_to, distance, neighbour
from maps.core.loader import load_map
from maps.core.model import Terrain
from maps.core.paths import least_cost_path
from maps.core.render import hex_of_latlon

pytestmark = pytest.mark.pure

FACTS = Path(__file__).resolve().parents[2] / "maps" / "tools" / "mapgen" / "facts"


def facts(name):
    with open(FACTS / name, "rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def m():
    return load_map()


def at(m, lat, lon):
    return hex_of_latlon(m, lat, lon)


# --- places --------------------------------------------------------------------------------------


def test_komorn_is_within_one_hex_of_komarno_on_the_danube(m):
    # Komárno, the fortress at the mouth of the Waag, 47.763 N 18.123 E
    assert distance(m.city("Komorn").hex, at(m, 47.763, 18.123)) <= 1
    assert "Danube" in m.city("Komorn").rivers and "Waag" in m.city("Komorn").rivers


def test_the_danube_is_not_bent_north_to_komorn(m):
    # the old GeoNames record of Komárno (3059435, 48.117 N 18.317 E, the district's middle) drew
    # the Danube 40 km North to reach it; no Danube side comes within a hex of that point now
    wrong = at(m, 48.117, 18.317)
    sides = [s for c in m.river_courses if c.name == "Danube" for s in c.sides]
    assert all(distance(h, wrong) > 1 for h, _d in sides)


def test_loitz_is_swedish_and_the_false_loitz_is_not(m):
    # Loitz on the Peene, 53.975 N 13.135 E, was Swedish; the old GeoNames record put it 60 km
    # South, near Neubrandenburg, and painted a Swedish patch in Mecklenburg there
    assert m.area(at(m, 53.975, 13.135)) == "Swedish Pomerania"
    assert m.area(at(m, 53.442, 13.388)) != "Swedish Pomerania"
    swedish = m.hexes_in_area("Swedish Pomerania")
    assert all(h.r <= at(m, 53.80, 13.0).r for h in swedish)


# --- owners in 1756 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "place, lat, lon, area",
    [
        # Upper Hungary (Slovakia) was Hungarian, so Austrian, not Polish
        ("Ružomberok", 49.075, 19.308, "Austria"),
        ("Liptovský Mikuláš", 49.081, 19.622, "Austria"),
        ("Martin", 49.067, 18.924, "Austria"),
        ("Banská Bystrica", 48.740, 19.149, "Austria"),
        ("Zvolen", 48.574, 19.153, "Austria"),
        ("Dolný Kubín", 49.210, 19.303, "Austria"),
        ("Čadca", 49.435, 18.789, "Austria"),
        # Anklam, Usedom and Wollin: Prussian since the Peace of Stockholm (1720)
        ("Usedom", 53.875, 13.924, "Prussia"),
        ("Wollin", 53.842, 14.615, "Prussia"),
        ("Heringsdorf", 53.954, 14.169, "Prussia"),
        # the Innviertel was Bavarian until the Peace of Teschen (1779)
        ("Ried im Innkreis", 48.211, 13.489, "Bavaria"),
        ("Schärding", 48.453, 13.437, "Bavaria"),
        # Jüterbog and Belzig were in the Saxon Electoral Circle until 1815
        ("Jüterbog", 51.996, 13.080, "Saxony"),
        ("Belzig", 52.142, 12.593, "Saxony"),
        # Pless was Upper Silesian (Prussian since 1742); Żywiec was Polish crown land
        ("Pless", 49.980, 18.954, "Silesia"),
        ("Żywiec", 49.685, 19.192, "Poland"),
        # the whole-map check (docs/map-audit.md, "Every city and its owner"):
        # the Prince-Bishopric of Hildesheim (Peine with it) was not Hanoverian until 1815
        ("Hildesheim", 52.152, 9.951, "Empire"),
        ("Peine", 52.320, 10.234, "Empire"),
        # Altenburg was Saxe-Gotha-Altenburg (Ernestine), not the Electorate
        ("Altenburg", 50.985, 12.434, "Empire"),
        # the Greater Polish border towns went to Prussia only in 1772 (Deutsch Krone) and 1793
        ("Wałcz", 53.271, 16.472, "Poland"),
        ("Międzyrzecz", 52.445, 15.578, "Poland"),
        ("Skwierzyna", 52.600, 15.504, "Poland"),
        ("Rawicz", 51.609, 16.858, "Poland"),
        ("Wschowa", 51.807, 16.317, "Poland"),
        # the Schwiebus circle belonged to the Silesian duchy of Glogau until 1817
        ("Świebodzin", 52.248, 15.534, "Silesia"),
        # Hasselt, Tongeren (the county of Loon) and Dinant were the Prince-Bishop of Liège's
        ("Hasselt", 50.931, 5.338, "Empire"),
        ("Tongeren", 50.781, 5.464, "Empire"),
        ("Dinant", 50.261, 4.912, "Empire"),
        # Roermond was the capital of Austrian Upper Guelders (1715-1794); Sittard was Jülich's
        ("Roermond", 51.194, 5.988, "Austrian Netherlands"),
        ("Sittard", 51.000, 5.869, "Empire"),
        # Reichenhall and Traunstein were Bavarian, not Salzburg's
        ("Bad Reichenhall", 47.725, 12.877, "Bavaria"),
        ("Traunstein", 47.869, 12.646, "Bavaria"),
    ],
)
def test_the_owner_of_1756(m, place, lat, lon, area):
    assert m.area(at(m, lat, lon)) == area, place


def test_anklam_is_prussian(m):
    assert m.city("Anklam").area == "Prussia"
    assert m.area(m.city("Anklam").hex) == "Prussia"


def test_upper_hungary_is_austrian_to_the_tatra(m):
    # between the Waag and the Tatra (48.5-49.3 N, 18.5-20.2 E) no hex is Polish
    polish = [
        h
        for lat in (48.6, 48.8, 49.0, 49.15)
        for lon in (18.6, 18.9, 19.2, 19.5, 19.8)
        for h in [at(m, lat, lon)]
        if h in m and m.area(h) == "Poland"
    ]
    assert polish == []


# --- banks ---------------------------------------------------------------------------------------


def crosses(m, a, b, river):
    path = least_cost_path(m, a, b)
    assert path is not None
    return [
        (h, direction_to(h, n))
        for h, n in zip(path, path[1:], strict=False)
        if m.river_name(h, direction_to(h, n)) in (river,)
    ]


@pytest.mark.parametrize(
    "city, river, across, same",
    [
        # city, its river, a town on the far bank, a town on the city's own bank
        ("Neuf-Brisach", "Rhine", (47.99, 7.85), (48.08, 7.36)),  # Freiburg / Colmar
        ("Rheinfels", "Rhine", (50.20, 7.86), (49.99, 7.53)),  # Nastätten / Simmern
        ("Konigstein", "Elbe", (51.05, 14.08), (50.85, 13.94)),  # Stolpen / Gottleuba
        ("Domitz", "Elbe", (52.97, 11.15), (53.33, 11.50)),  # Lüchow / Ludwigslust
        ("Cleves", "Rhine", (51.83, 6.46), (51.68, 6.16)),  # Isselburg / Goch
        ("Oppeln", "Oder", (50.32, 17.58), (50.68, 18.21)),  # Prudnik / Ozimek
        ("Bremen", "Weser", (53.05, 8.63), (53.14, 8.91)),  # Delmenhorst / Lilienthal
        ("Hameln", "Weser", (51.99, 9.25), (52.21, 9.55)),  # Bad Pyrmont / Springe
        ("Kassel", "Fulda", (51.20, 9.72), (51.33, 9.17)),  # Hessisch Lichtenau / Wolfhagen
        ("Komorn", "Danube", (47.65, 18.32), (47.99, 18.16)),  # Tata / Nové Zámky
        # the whole-map check (docs/map-audit.md, "Banks")
        ("Nienburg", "Weser", (52.68, 8.80), (52.50, 9.46)),  # Sulingen / Neustadt a. Rbge.
        ("Stuttgart", "Neckar", (48.80, 9.53), (48.71, 8.74)),  # Schorndorf / Calw
        ("Posen", "Warthe", (52.41, 17.08), (52.35, 16.52)),  # Swarzędz / Buk
        ("Thionville", "Moselle", (49.29, 6.53), (49.25, 5.94)),  # Bouzonville / Briey
        ("Rotterdam", "Rhine", (51.73, 4.44), (52.01, 4.71)),  # Numansdorp / Gouda
    ],
)
def test_the_city_stands_on_its_bank(m, city, river, across, same):
    h = m.city(city).hex
    assert river in m.city(city).rivers
    far, near = at(m, *across), at(m, *same)
    assert far != h and near != h
    assert crosses(m, h, far, river), f"{city} to the far bank crosses the {river}"
    assert not crosses(m, h, near, river), f"{city} to its own bank does not cross the {river}"


def test_every_city_with_a_bank_has_its_river_along_its_hex(m):
    for city in facts("cities.toml")["cities"]:
        if city.get("bank"):
            assert city["bank"][0] in m.city(city["name"]).rivers, city["name"]


# --- roads ---------------------------------------------------------------------------------------


def road(m, name):
    return next(r for r in m.roads if r.name == name)


@pytest.mark.parametrize(
    "name, towns",
    [
        ("Vienna-Budapest", ["Vienna", "Pressburg", "Raab", "Komorn", "Budapest"]),
        ("Frankfurt-Mainz-Cologne", ["Frankfurt", "Mainz", "Rheinfels", "Koblenz", "Cologne"]),
        ("Posen-Thorn-Danzig", ["Posen", "Bromberg", "Thorn", "Marienburg"]),
        ("Warsaw-Thorn", ["Warsaw", "Thorn"]),
        ("Mainz-Mannheim-Strasburg", ["Mainz", "Mannheim", "Philippsburg", "Landau", "Strasburg"]),
        ("Dresden-Prague", ["Dresden", "Prague"]),
    ],
)
def test_the_main_road_passes_through_its_towns_in_order(m, name, towns):
    hexes = list(road(m, name).hexes)
    places = [hexes.index(m.city(t).hex) for t in towns]
    assert places == sorted(places), name


def test_mainz_and_pressburg_are_on_roads(m):
    on_road = {h for r in m.roads for h in r.hexes}
    assert m.city("Mainz").hex in on_road and m.city("Pressburg").hex in on_road


def test_the_dresden_prague_road_keeps_to_the_left_bank_of_the_elbe(m):
    r = road(m, "Dresden-Prague")
    crossed = {
        m.river_name(a, direction_to(a, b)) for a, b in zip(r.hexes, r.hexes[1:], strict=False)
    }
    assert "Elbe" not in crossed and "Upper Elbe" not in crossed
    # it goes by Teplitz and Lobositz, not down the gorge by Königstein and Aussig
    assert any(distance(h, at(m, 50.640, 13.825)) <= 1 for h in r.hexes)  # Teplitz
    assert any(distance(h, at(m, 50.515, 14.051)) <= 1 for h in r.hexes)  # Lobositz


def test_every_road_runs_through_every_city_it_lists(m):
    for entry in facts("roads.toml")["roads"]:
        hexes = set(road(m, entry["name"]).hexes)
        for ref in entry["via"]:
            if isinstance(ref, str) and ref in {c.name for c in m.cities}:
                assert m.city(ref).hex in hexes, (entry["name"], ref)


def test_no_road_passes_a_city_by_without_a_written_reason(m):
    reasons = facts("roads.toml")["passes_by"]
    unexplained = []
    for r in m.roads:
        hexes = set(r.hexes)
        for c in m.cities:
            if c.hex in hexes or not any(distance(c.hex, h) == 1 for h in hexes):
                continue
            if not reasons.get(r.name, {}).get(c.name, "").strip():
                unexplained.append((r.name, c.name))
    assert unexplained == []


def test_every_written_reason_is_still_needed(m):
    # a reason for a city the road now enters, or no longer passes, is stale
    for name, cities in facts("roads.toml")["passes_by"].items():
        hexes = set(road(m, name).hexes)
        for city in cities:
            h = m.city(city).hex
            assert h not in hexes and any(distance(h, x) == 1 for x in hexes), (name, city)


# --- crossings -----------------------------------------------------------------------------------


def bridges_near(m, lat, lon, river, reach=1):
    centre = at(m, lat, lon)
    found = []
    for h in m.hexes:
        if distance(h, centre) > reach:
            continue
        for d in DIRECTIONS:
            if m.river_name(h, d) == river and m.bridge(h, d):
                found.append((h, d))
    return found


@pytest.mark.parametrize(
    "place, lat, lon, river, reach",
    [
        # ferries or nothing in 1756: no bridge within a hex
        ("Glückstadt", 53.788, 9.424, "Elbe", 1),
        ("Stade", 53.594, 9.473, "Elbe", 1),
        ("Dömitz", 53.141, 11.250, "Elbe", 1),
        ("Tangermünde", 52.541, 11.968, "Elbe", 1),
        ("Lauenburg", 53.372, 10.557, "Elbe", 1),
        ("St. Goar (Rheinfels)", 50.154, 7.711, "Rhine", 1),
        # Sélestat's own hex: the next hex South holds Neuf-Brisach and the Breisach crossing
        ("Sélestat", 48.262, 7.449, "Rhine", 0),
    ],
)
def test_no_bridge_where_the_period_had_a_ferry_or_nothing(m, place, lat, lon, river, reach):
    assert bridges_near(m, lat, lon, river, reach) == [], place


def test_the_lower_elbe_has_no_bridge_between_hamburg_and_the_sea(m):
    hamburg = m.city("Hamburg").hex
    elbe = [s for c in m.river_courses if c.name == "Elbe" for s in c.sides]
    below = [s for s in elbe if s[0].q < hamburg.q - 1 and m.bridge(s[0], s[1])]
    assert below == []


@pytest.mark.parametrize(
    "crossing", [c for c in facts("bridges.toml")["bridges"] if c["type"] == "bridge"]
)
def test_every_bridge_of_the_facts_is_on_the_map(m, crossing):
    places = facts("places.toml")["places"]
    p = places[crossing["at"]]
    assert bridges_near(m, p["lat"], p["lon"], crossing["river"]), crossing["at"]


def test_every_crossing_has_a_type_and_a_source():
    data = facts("bridges.toml")
    for c in data["bridges"] + data["city"]:
        assert c["type"] in ("bridge", "ferry", "ford", "none"), c
        assert c["source"].strip() and c["note"].strip(), c


# --- water, islands and relief -------------------------------------------------------------------


def test_the_muritz_is_a_lake(m):
    assert m.terrain(at(m, 53.47, 12.69)) is Terrain.LAKE


@pytest.mark.parametrize(
    "island, points, least",
    [
        # Rügen is 926 km², about four hexes
        (
            "Rügen",
            [(54.62, 13.35), (54.53, 13.60), (54.42, 13.43), (54.35, 13.48), (54.45, 13.22)],
            4,
        ),
        ("Usedom", [(53.87, 13.92), (54.05, 13.93), (53.95, 14.15)], 2),
        ("Wollin", [(53.84, 14.61), (53.93, 14.45), (53.98, 14.70)], 2),
    ],
)
def test_the_islands_are_land(m, island, points, least):
    hexes = {at(m, *p) for p in points}
    land = {h for h in hexes if m.terrain(h).passable}
    assert land == hexes and len(land) >= least, island


@pytest.mark.parametrize(
    "range_, lat, lon",
    [
        ("Eulengebirge", 50.70, 16.45),
        ("Lusatian mountains", 50.83, 14.60),
        ("White Carpathians", 48.90, 17.75),
        ("Eifel", 50.45, 6.55),
        ("Hunsrück", 49.95, 7.40),
        ("Ardennes", 49.95, 5.05),
        ("Ardennes", 50.25, 5.95),
    ],
)
def test_the_hill_ranges_are_rough(m, range_, lat, lon):
    assert m.terrain(at(m, lat, lon)) is Terrain.ROUGH, range_


def test_the_wooded_uplands_are_more_than_a_thin_line(m):
    for name, lat, lon, least in (
        ("Eifel", 50.35, 6.70, 5),
        ("Hunsrück", 49.85, 7.20, 4),
        ("Ardennes", 50.05, 5.50, 6),
    ):
        centre = at(m, lat, lon)
        rough = [h for h in m.hexes if distance(h, centre) <= 2 and m.terrain(h) is Terrain.ROUGH]
        assert len(rough) >= least, name


# --- the facts files -----------------------------------------------------------------------------


# GeoNames records whose main name is another language's for the same town (checked by hand:
# the coordinates are the town's)
OTHER_NAMES = {
    "Bielsko-Biała": "Bielsko-Biala",
    "Bunzlau": "Bolesławiec",
    "Den Haag": "The Hague",
    "Dunkerque": "Dunkirk",
    "Frankenstein": "Ząbkowice Śląskie",
    "Gizycko": "Giżycko",
    "Grünberg": "Zielona Góra",
    "Hann. Münden": "Hannoversch Münden",
    "Landeshut": "Kamienna Góra",
    "Lauban": "Lubań",
    "Leobschütz": "Głubczyce",
    "Lübben": "Lubin",  # the Sorbian name of Lübben (Spreewald), 51.94 N 13.89 E
    "Lübbenau": "Lubnjow",  # the Sorbian name of Lübbenau, 51.86 N 13.95 E
    "Meseritz": "Międzyrzecz",
    "München": "Munich",
    "Nürnberg": "Nuremberg",
    "Plzeň": "Pilsen",
    "Sagan": "Żagań",
    "Schwiebus": "Świebodzin",
    "Sprottau": "Szprotawa",
    "Waldenburg": "Wałbrzych",
    "Ypres": "Ieper",
    "Ziegenhals": "Głuchołazy",
    "Züllichau": "Sulechów",
}


def test_every_geonames_place_is_the_named_place():
    # the GeoNames record behind each reference bears the reference's name (or a known other
    # name of the same town); the record for Komárno is the town's, not the district's
    places = facts("places.toml")["places"]
    for ref, entry in places.items():
        name = ref.split("~")[0].rpartition("/")[0]
        geoname = entry["geoname"]
        same = name.casefold() in geoname.casefold() or geoname.casefold() in name.casefold()
        assert same or OTHER_NAMES.get(name) == geoname, (ref, geoname)
    assert places["Komárno/SK~47.76,18.12"]["geonameid"] == 3059436
    assert "Komárno/SK" not in places and "Loitz/DE" not in places


def test_sidesteps_are_kept_in_check(m):
    # a city never needs to stand more than a hex from its own coordinates
    for c in m.cities:
        assert distance(hex_of_latlon(m, c.lat, c.lon), c.hex) <= 1, c.name
    assert all(neighbour(m.city("Komorn").hex, d) in m for d in DIRECTIONS)


def test_swedish_pomerania_is_the_land_north_of_the_peene_with_rugen(m):
    # 1720-1815: some 4,000-4,500 km2, 18-20 hexes of 224 km2 (facts/areas.toml); no more than 24
    swedish = m.hexes_in_area("Swedish Pomerania")
    assert 18 <= len(swedish) <= 24, len(swedish)
    for lat, lon, place in [
        (54.309, 13.082, "Stralsund"),
        (54.089, 13.402, "Greifswald"),
        (54.052, 13.771, "Wolgast"),
        (54.373, 12.724, "Barth"),
        (54.42, 13.43, "Rügen"),
        (53.96, 13.55, "Züssow, North of the Peene opposite Anklam"),
        (53.892, 11.456, "Wismar (Swedish until 1803)"),
    ]:
        assert m.area(at(m, lat, lon)) == "Swedish Pomerania", place
    for lat, lon, place, area in [
        (53.856, 13.690, "Anklam, South of the Peene", "Prussia"),
        # Demmin itself stands on the Peene at the edge of a hex that is mostly North of it
        (53.84, 13.17, "South of the Peene, between Demmin and Anklam", "Prussia"),
        (54.08, 13.92, "Usedom", "Prussia"),
        (54.03, 11.67, "Neubukow", "Mecklinburg"),
        (53.97, 12.71, "Gnoien", "Mecklinburg"),
        (53.90, 12.85, "Dargun", "Mecklinburg"),
        (54.097, 12.193, "Rostock", "Mecklinburg"),
    ]:
        assert m.area(at(m, lat, lon)) == area, place
