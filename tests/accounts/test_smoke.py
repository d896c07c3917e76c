import pytest
from django.db import connection


@pytest.mark.django_db
def test_the_test_database_is_real_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        assert "PostgreSQL" in cursor.fetchone()[0]
