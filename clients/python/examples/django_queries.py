from django.db.models import Value

from myapp.models import Page
from simhash_pg.django import Distance, SimhashOf

page = Page.objects.create(url="https://example.org/fox",
                           body="The quick brown fox jumps over the lazy dog")
print(repr(page.fp))        # Simhash('8212868318d29267'), read back by INSERT ... RETURNING

q = SimhashOf(Value("the QUICK brown fox, jumps over the lazy dog!"))
print(Page.objects.filter(fp__within=(q, 3)).count())            # 1: fp <-> q <= 3
print(Page.objects.filter(fp__within=(page.fp, 0)).count())      # 1
nearest = Page.objects.order_by(Distance("fp", page.fp))[:10]    # the 10 nearest
print([p.url for p in nearest])                                  # ['https://example.org/fox']
