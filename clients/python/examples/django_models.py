from django.db import models

from simhash_pg.django import SimhashField, SimhashIndex


class Page(models.Model):
    url = models.TextField()
    body = models.TextField()
    fp = SimhashField(generated_from="body")   # GENERATED ALWAYS AS (simhash(body)) STORED

    class Meta:
        indexes = [SimhashIndex(fields=["fp"], name="page_fp_simhash")]
