import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('django', {
  positive: [
    {
      name: 'function views named by a URLconf, through a submodule import and a wrapper',
      files: {
        'menu/urls.py': `from django.urls import path, re_path
from django.contrib.auth.decorators import login_required
from . import views

urlpatterns = [
    path("bookmarks/<int:id>/remove/", views.remove_bookmark, name="remove"),
    re_path(r"^edit/(?P<id>.+)/$", login_required(views.edit_bookmark)),
]
`,
        'menu/views.py': `def remove_bookmark(request, id):
    pass

def edit_bookmark(request, id):
    pass

def helper(request):
    pass
`,
      },
      entries: [
        { function: 'remove_bookmark', line: 1 },
        { function: 'edit_bookmark', line: 4 },
      ],
    },
    {
      name: 'class-based views: verb methods and form_valid of a generic view, DRF viewset actions and @action',
      files: {
        'app/views.py': `from django.views.generic import UpdateView
from rest_framework import viewsets
from rest_framework.decorators import action, api_view

class InvoiceUpdate(UpdateView):
    def form_valid(self, form):
        pass
    def get_context_data(self, **kwargs):
        pass

class InvoiceViewSet(viewsets.ModelViewSet):
    def destroy(self, request, pk=None):
        pass
    @action(detail=True, methods=["post"])
    def archive(self, request, pk=None):
        pass
    def get_queryset(self):
        pass

@api_view(["POST"])
def purge(request):
    pass
`,
      },
      entries: [
        { function: 'InvoiceUpdate.form_valid', line: 6 },
        { function: 'InvoiceViewSet.destroy', line: 12 },
        { function: 'InvoiceViewSet.archive', line: 14 },
        { function: 'purge', line: 20 },
      ],
    },
  ],
  negative: [
    {
      name: 'a class with a get method in a file that does not use Django',
      files: { 'app/cache.py': 'class View:\n    pass\n\nclass Cache(View):\n    def get(self, key):\n        return None\n' },
    },
    {
      name: 'a URLconf naming a library view (counted, no entry) and an include',
      files: {
        'app/urls.py': 'from django.urls import include, path\nfrom django.contrib.auth import views as auth_views\n\nurlpatterns = [\n    path("login/", auth_views.LoginView.as_view()),\n    path("blog/", include("blog.urls")),\n]\n',
      },
      unresolved: { registration_unresolved: 1 },
    },
  ],
});
