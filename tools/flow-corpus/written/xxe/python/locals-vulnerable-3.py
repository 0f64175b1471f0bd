from xml.sax import make_parser
from xml.sax.handler import ContentHandler, feature_external_ges

from django.http import JsonResponse


class Titles(ContentHandler):
    def __init__(self):
        super().__init__()
        self.count = 0

    def startElement(self, name, attrs):
        self.count += name == "title"


def upload_opml(request):
    outline = request.FILES["outline"]
    reader = make_parser()
    reader.setFeature(feature_external_ges, True)
    titles = Titles()
    reader.setContentHandler(titles)
    reader.parse(outline)  # SINK
    return JsonResponse({"titles": titles.count})
