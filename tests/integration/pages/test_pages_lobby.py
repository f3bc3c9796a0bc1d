"""The lobby's forms through the Flask test client: typed options, invitations by name, kept entries,
sign-up without a second account on reload, the user search endpoint, HTML error pages and the favicon."""
from __future__ import annotations

import re

import pytest

from tests.integration.pages.forms import csrf_of, new_match, sign_up


@pytest.fixture
def ann(client):
    """A browser signed in as Ann; (client, the session's CSRF token)."""
    sign_up(client, "Ann")
    return client, csrf_of(client.get("/").get_data(as_text=True))


def created_options(wiring, response) -> dict:
    """The options of the match a successful form created."""
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    match_id = response.headers["Location"].rsplit("/", 1)[1]
    return wiring.matches.load(match_id).options


@pytest.mark.parametrize("game, fields, expected", [
    ("uchronia", {"opt_uchronia_vp_target": "10", "opt_uchronia_max_rounds": "20"}, {"vp_target": 10, "max_rounds": 20}),
    ("merchant-of-venus", {"opt_merchant-of-venus_target_net_worth": "900"}, {"target_net_worth": 900}),
    ("origins", {"opt_origins_max_rounds": "5"}, {"max_rounds": 5}),
    ("ti4-exploration", {"opt_ti4-exploration_rounds": "3"}, {"rounds": 3}),
])
def test_option_fields_are_typed_numbers(ann, wiring, game, fields, expected):
    client, csrf = ann
    options = created_options(wiring, new_match(client, csrf, game, seats="2", **fields))
    assert {k: options[k] for k in expected} == expected


def test_the_form_shows_defaults_and_ranges(ann):
    client, _ = ann
    html = client.get("/").get_data(as_text=True)
    form = html[html.index('data-game="merchant-of-venus"'):]
    assert re.search(r'name="opt_merchant-of-venus_max_rounds"[^>]*value="20"', form)
    assert 'name="opt_uchronia_vp_target"' in html and "VP target" in html


def test_a_refused_form_keeps_its_entries(ann, client):
    client, csrf = ann
    answer = new_match(client, csrf, "uchronia", invite="Nobody Here", seats="2",
                       opt_uchronia_max_rounds="7", turn_deadline_hours="12")
    html = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert "nobody is called" in html
    start = html.index('data-game="uchronia"')
    end = html.find('data-game="', start + 1)
    form = html[start:end if end > 0 else len(html)]  # Uchronia's fields, up to the next game's
    assert 'value="Nobody Here"' in form and re.search(r'max_rounds"[^>]*value="7"', form)
    assert 'value="12"' in form
    answer = new_match(client, csrf, "uchronia", seats="2", opt_uchronia_max_rounds="seven")
    assert answer.status_code == 400 and "Max rounds must be a whole number" in answer.get_data(as_text=True)


# the choices an option takes from a game's data, shown by the names a player reads in the rulebook
RACES = {"en": {"humans": "Humans", "whynom": "Whynom", "qossuth": "Qossuth", "eeepeeep": "Eeepeeep"},
         "ru": {"humans": "Люди", "whynom": "Вайномы", "qossuth": "Коссут", "eeepeeep": "Иипиип"}}
CHOICE = re.compile(r'<label class="check"><input type="checkbox" name="([^"]+)" value="([^"]*)"[^>]*>([^<]*)</label>'
                    r'|<option value="([^"]+)"[^>]*>([^<]*)</option>')


def shown_choices(html: str) -> dict:
    """{field name (or the form's game for a select's options): {value submitted: label shown}} of the checkboxes
    and select options in the lobby's new-match forms."""
    out: dict = {}
    for form in re.findall(r'<form class="card game-card".*?</form>', html, re.S):
        game = re.search(r'data-game="([^"]+)"', form)[1]
        for m in CHOICE.finditer(form):
            name, value, label = (m[1], m[2], m[3]) if m[1] else (f"{game} select", m[4], m[5])
            out.setdefault(name, {})[value] = label.strip()
    return out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_option_choices_from_game_data_are_shown_by_their_names(ann, lang):
    client, _ = ann
    client.set_cookie("lang", lang)
    html = client.get("/").get_data(as_text=True)
    assert f'<html lang="{lang}">' in html
    choices = shown_choices(html)
    assert choices["opt_merchant-of-venus_races"] == RACES[lang]
    form = html[html.index('data-game="merchant-of-venus"'):]
    fieldset = form[form.index('name="opt_merchant-of-venus_races"') - 200:]
    fieldset = fieldset[fieldset.index("<fieldset>"):fieldset.index("</fieldset>")]
    visible = re.sub(r"<[^>]*>", " ", fieldset)  # the text a player reads, without the submitted values
    assert not [race for race in RACES["en"] if race in visible], visible
    for field, shown in choices.items():  # every game's choices: none is shown by its id
        assert not [value for value, label in shown.items() if value and label == value], (field, shown)
        if lang == "ru":
            assert not [label for label in shown.values() if re.search(r"[A-Za-z]", label)], (field, shown)


def test_a_chosen_race_creates_the_match_with_it_and_a_refused_form_keeps_it(ann, client, wiring):
    client, csrf = ann
    client.set_cookie("lang", "ru")
    races = {"opt_merchant-of-venus_races": ["whynom", "qossuth"]}
    options = created_options(wiring, new_match(client, csrf, "merchant-of-venus", seats="2", **races))
    assert options["races"] == ["whynom", "qossuth"]
    refused = new_match(client, csrf, "merchant-of-venus", seats="2", invite="Nobody Here", **races)
    assert refused.status_code == 400
    form = refused.get_data(as_text=True)
    form = form[form.index('data-game="merchant-of-venus"'):]
    ticked = re.findall(r'value="(\w+)"\s*checked>\s*([^<]+)</label>', form)
    assert [(value, label.strip()) for value, label in ticked] == [("whynom", "Вайномы"), ("qossuth", "Коссут")]


def test_invite_by_display_name_and_short_id(ann, client, make_user, wiring):
    client, csrf = ann
    bob_id, _ = make_user("Bob")
    answer = new_match(client, csrf, "uchronia", invite="bob")
    match = wiring.matches.load(answer.headers["Location"].rsplit("/", 1)[1])
    assert match.players[1] == bob_id
    other_bob, _ = make_user("Bob")
    ambiguous = new_match(client, csrf, "uchronia", invite="Bob")
    text = ambiguous.get_data(as_text=True)
    assert ambiguous.status_code == 400 and "several players are called" in text
    assert bob_id[2:8] in text and other_bob[2:8] in text
    picked = new_match(client, csrf, "uchronia", invite=f"Bob #{other_bob[2:8]}")
    assert wiring.matches.load(picked.headers["Location"].rsplit("/", 1)[1]).players[1] == other_bob


def test_user_search_by_name_prefix(client, make_user):
    ann_id, _ = make_user("Annabel")
    make_user("Bob")
    found = client.get("/api/users?name=ann").get_json()["users"]
    assert [(u["id"], u["name"], u["short_id"]) for u in found] == [(ann_id, "Annabel", ann_id[2:8])]
    assert client.get("/api/users").status_code == 400
    doc = client.get("/api/openapi.json").get_json()
    params = {p["name"]: p for p in doc["paths"]["/api/users"]["get"]["parameters"]}
    assert params["name"]["required"] is True


def test_sign_up_redirects_and_a_reload_creates_no_second_account(client, wiring):
    page = sign_up(client, "Carol")
    token = re.search(r"data-new-token>([^<]+)<", page).group(1)
    user_id = re.search(r"data-new-user-id>([^<]+)<", page).group(1)
    assert wiring.users.authenticate(token)["id"] == user_id
    again = client.get("/welcome").get_data(as_text=True)
    assert token not in again and "data-token-gone" in again and user_id in again
    assert [u["id"] for u in wiring.users.search("carol")] == [user_id]
    rotated = client.post("/welcome/token", data={"csrf": csrf_of(again)})
    assert rotated.status_code == 303 and rotated.headers["Location"].endswith("/welcome")
    fresh = re.search(r"data-new-token>([^<]+)<", client.get("/welcome").get_data(as_text=True)).group(1)
    assert fresh != token and wiring.users.authenticate(fresh)["id"] == user_id
    from service.app.errors import Unauthorized
    with pytest.raises(Unauthorized):
        wiring.users.authenticate(token)


def test_page_paths_answer_html_errors_and_api_paths_json(client):
    page = client.get("/no/such/page", headers={"Accept": "text/html,*/*;q=0.8"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "This page does not exist" in page.get_data(as_text=True)
    missing_match = client.get("/matches/m_nope", headers={"Accept": "text/html"})
    assert missing_match.status_code == 404 and missing_match.mimetype == "text/html"
    api = client.get("/api/no/such", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.get_json()["error"]["code"] == "not_found"
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"


def test_a_failing_page_answers_an_html_500_without_a_trace(wiring):
    from service import create_app
    app = create_app(wiring=wiring)

    def broken():
        raise RuntimeError("secret internals")

    app.add_url_rule("/broken-page", "broken_page", broken)
    app.add_url_rule("/api/broken", "broken_api", broken)
    client = app.test_client()
    page = client.get("/broken-page", headers={"Accept": "text/html"})
    assert page.status_code == 500 and page.mimetype == "text/html"
    assert "secret internals" not in page.get_data(as_text=True)
    api = client.get("/api/broken", headers={"Accept": "text/html"})
    assert api.status_code == 500 and api.get_json()["error"]["code"] == "internal_error"
