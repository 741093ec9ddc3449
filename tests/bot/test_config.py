import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATA_DIR, DEFAULT_DATABASE_URL, ConfigError, load_settings


def test_defaults_apply_when_the_environment_is_empty():
    settings = load_settings({})
    assert settings.token is None
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert str(settings.database_path) == "data/gobelet.db"
    assert settings.data_dir == DEFAULT_DATA_DIR == Path("data")
    assert settings.turn_seconds == 90
    assert settings.cpu_delay_seconds == 1.5
    assert settings.dev_guild_id is None


@pytest.mark.parametrize(
    ("url", "folder"),
    [
        ("sqlite:////var/lib/gobelet/games.db", "/var/lib/gobelet"),
        ("sqlite:///games.db", "."),
        ("sqlite:///:memory:", "data"),
        ("postgresql://db/gobelet", "data"),
    ],
)
def test_the_caches_stay_beside_a_sqlite_database_unless_told_otherwise(url, folder):
    # Before GOBELET_DATA_DIR the caches lived beside the database file: a deployment that
    # moved its database keeps its cached Yadès tables.
    assert load_settings({"GOBELET_DATABASE_URL": url}).data_dir == Path(folder)
    told = {"GOBELET_DATABASE_URL": url, "GOBELET_DATA_DIR": "/srv/cache"}
    assert load_settings(told).data_dir == Path("/srv/cache")


def test_every_variable_is_read():
    settings = load_settings(
        {
            "DISCORD_TOKEN": "abc",
            "GOBELET_DATABASE_URL": "sqlite:////tmp/x.db",
            "GOBELET_DATA_DIR": "/var/cache/gobelet",
            "DISCORD_API_BASE_URL": "http://127.0.0.1:1/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:1/",
            "GOBELET_DEV_GUILD_ID": "42",
            "GOBELET_TURN_SECONDS": "5",
            "GOBELET_CPU_DELAY_SECONDS": "0",
            "GOBELET_LOG_LEVEL": "debug",
        }
    )
    assert settings.token == "abc"
    assert str(settings.database_path) == "/tmp/x.db"
    assert settings.data_dir == Path("/var/cache/gobelet")
    assert settings.dev_guild_id == 42
    assert settings.turn_seconds == 5
    assert settings.cpu_delay_seconds == 0
    assert settings.log_level == "DEBUG"


def test_the_data_folder_can_be_set_apart_from_the_database():
    apart = load_settings({"GOBELET_DATA_DIR": "  cache/gobelet  "})
    assert apart.data_dir == Path("cache/gobelet")
    assert apart.database_url == DEFAULT_DATABASE_URL
    assert load_settings({"GOBELET_DATA_DIR": "~/gobelet"}).data_dir == Path.home() / "gobelet"
    assert "data_dir='cache/gobelet'" in repr(apart)


def test_a_data_folder_that_does_not_exist_yet_is_accepted(tmp_path):
    later = tmp_path / "not" / "yet"
    assert load_settings({"GOBELET_DATA_DIR": str(later)}).data_dir == later
    assert not later.exists()  # reading the settings makes nothing


def test_a_file_where_the_data_folder_should_be_is_refused(tmp_path):
    taken = tmp_path / "gobelet.db"
    taken.write_text("")
    with pytest.raises(ConfigError, match="GOBELET_DATA_DIR"):
        load_settings({"GOBELET_DATA_DIR": str(taken)})


def test_the_token_never_appears_in_the_settings_repr():
    assert "s3cret" not in repr(load_settings({"DISCORD_TOKEN": "s3cret"}))


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GOBELET_TURN_SECONDS", "soon"),
        ("GOBELET_TURN_SECONDS", "0"),
        ("GOBELET_CPU_DELAY_SECONDS", "-1"),
        ("GOBELET_DEV_GUILD_ID", "my-server"),
        ("GOBELET_LOG_LEVEL", "loud"),
        ("GOBELET_HTTP_PORT", "http"),
        ("GOBELET_HTTP_PORT", "0"),
        ("GOBELET_HTTP_PORT", "65536"),
    ],
)
def test_unusable_values_are_refused_with_the_variable_named(name, value):
    with pytest.raises(ConfigError, match=name):
        load_settings({name: value})


def test_running_without_a_token_explains_how_to_set_one_and_exits_2(tmp_path):
    env = {"PATH": "", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr
    assert ".env" in done.stderr


def test_a_dotenv_file_fills_what_the_environment_lacks(tmp_path):
    (tmp_path / ".env").write_text("GOBELET_TURN_SECONDS=5\nDISCORD_TOKEN=from-dotenv\n")
    env = {"PATH": "", "HOME": str(tmp_path), "GOBELET_DATABASE_URL": "sqlite:///:memory:"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--check"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "turn_seconds=5.0" in done.stdout
    assert "token=<set>" in done.stdout
    assert "from-dotenv" not in done.stdout + done.stderr


def test_one_process_runs_the_one_shard_by_default():
    settings = load_settings({})
    assert (settings.shard_count, settings.shard_ids) == (1, (0,))
    assert settings.shards.all
    assert not settings.shards_given  # Discord's recommendation decides at start


def test_a_shard_count_given_is_kept_whatever_discord_recommends():
    assert load_settings({"GOBELET_SHARD_COUNT": "1"}).shards_given


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "", (0, 1, 2, 3)),
        ("4", "1,3", (1, 3)),
        ("4", "0-2", (0, 1, 2)),
        ("8", "6-7, 0", (0, 6, 7)),
    ],
)
def test_a_process_runs_the_shards_it_is_given(count, ids, expected):
    env = {"GOBELET_SHARD_COUNT": count, "GOBELET_SHARD_IDS": ids}
    settings = load_settings(env)
    assert (settings.shard_count, settings.shard_ids) == (int(count), expected)
    assert settings.shards.ids == frozenset(expected)


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"GOBELET_SHARD_COUNT": "0"}, "GOBELET_SHARD_COUNT"),
        ({"GOBELET_SHARD_COUNT": "two"}, "GOBELET_SHARD_COUNT"),
        ({"GOBELET_SHARD_IDS": "0"}, "GOBELET_SHARD_COUNT"),
        ({"GOBELET_SHARD_COUNT": "2", "GOBELET_SHARD_IDS": "2"}, "from 0 to 1"),
        ({"GOBELET_SHARD_COUNT": "2", "GOBELET_SHARD_IDS": "a,b"}, "GOBELET_SHARD_IDS"),
        ({"GOBELET_SHARD_COUNT": "4", "GOBELET_SHARD_IDS": "3-1"}, "from 0 to 3"),
    ],
)
def test_unusable_shard_settings_are_refused_with_what_is_expected(env, named):
    with pytest.raises(ConfigError, match=named):
        load_settings(env)


def test_the_shipped_folder_is_the_source_trees_data_unless_told(tmp_path):
    assert load_settings({}).shipped_dir == Path(__file__).resolve().parents[2] / "data"
    assert load_settings({"GOBELET_SHIPPED_DIR": str(tmp_path)}).shipped_dir == tmp_path
    # Nothing writes there: a folder that is not there is a mistake in the setting.
    with pytest.raises(ConfigError, match="GOBELET_SHIPPED_DIR must be a folder that exists"):
        load_settings({"GOBELET_SHIPPED_DIR": str(tmp_path / "missing")})


def test_the_http_endpoint_is_off_unless_a_port_is_given():
    assert load_settings({}).http_port is None
    served = load_settings({"GOBELET_HTTP_PORT": " 8080 ", "GOBELET_HTTP_HOST": "0.0.0.0"})
    assert (served.http_port, served.http_host) == (8080, "0.0.0.0")
    assert load_settings({"GOBELET_HTTP_PORT": "8080"}).http_host == "127.0.0.1"


def test_a_port_already_taken_is_said_and_exits_2_before_reaching_discord(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            "PATH": "",
            "HOME": str(tmp_path),
            "DISCORD_TOKEN": "abc",
            "DISCORD_API_BASE_URL": "http://127.0.0.1:9/api/v10",  # nothing listens there
            "GOBELET_DATABASE_URL": "sqlite:///:memory:",
            "GOBELET_HTTP_PORT": str(port),
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),  # this tree's bot
        }
        done = subprocess.run(
            [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
        )
    assert done.returncode == 2, done.stderr
    assert f"GOBELET_HTTP_PORT: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_database_password_is_never_printed_with_the_settings():
    url = "postgresql://gobelet:S3cret-pw@db:5432/gobelet"
    settings = load_settings({"GOBELET_DATABASE_URL": url, "DISCORD_TOKEN": "tok.en"})
    assert "S3cret-pw" not in repr(settings)
    assert "postgresql://gobelet:<hidden>@db:5432/gobelet" in repr(settings)
    assert set(settings.secrets) == {"tok.en", "S3cret-pw"}  # what the logs remove
    assert load_settings({}).secrets == ()


def test_check_prints_no_database_password(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "GOBELET_DATABASE_URL": "postgresql://gobelet:S3cret-pw@db:5432/gobelet",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--check"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "<hidden>" in done.stdout and "S3cret-pw" not in done.stdout + done.stderr


def test_the_web_pages_get_an_address_only_when_both_port_and_address_are_set():
    assert load_settings({}).web_address is None
    assert load_settings({"GOBELET_WEB_PORT": "8081"}).web_address is None  # nobody could open it
    assert load_settings({"GOBELET_WEB_URL": "https://gobelet.example.org"}).web_address is None
    both = {"GOBELET_WEB_PORT": "8081", "GOBELET_WEB_URL": "https://gobelet.example.org/"}
    settings = load_settings(both)
    assert settings.web_address == "https://gobelet.example.org"
    assert (settings.web_port, settings.web_host) == (8081, "127.0.0.1")


@pytest.mark.parametrize(
    "url", ["gobelet.example.org", "ftp://example.org", "https://", "https://x.org/?a=1"]
)
def test_a_web_address_people_could_not_open_is_refused(url):
    with pytest.raises(ConfigError, match="GOBELET_WEB_URL"):
        load_settings({"GOBELET_WEB_PORT": "8081", "GOBELET_WEB_URL": url})
