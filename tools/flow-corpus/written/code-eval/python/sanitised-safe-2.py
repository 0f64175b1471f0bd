import ast

from django.http import JsonResponse


def import_settings(request):
    raw = request.POST.get("settings", "{}")
    settings = ast.literal_eval(raw)  # SINK
    return JsonResponse({"keys": sorted(settings)})
