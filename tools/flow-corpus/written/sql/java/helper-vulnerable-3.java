package com.example.web;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.sql.DataSource;

// A form object built from the request whose getter hands out the request parameter.
@WebServlet("/note-search")
class NoteSearchServlet extends HttpServlet {
    private DataSource dataSource;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        SearchForm form = new SearchForm(request);
        String owner = form.getFieldValue("owner");
        try {
            Connection conn = dataSource.getConnection();
            Statement stmt = conn.createStatement();
            ResultSet rs = stmt.executeQuery("SELECT title, body FROM notes WHERE owner_id = " + owner + " ORDER BY created_at DESC"); // SINK
        } catch (Exception e) {
            throw new ServletException(e);
        }
    }
}

class SearchForm {
    private final HttpServletRequest request;

    SearchForm(HttpServletRequest request) {
        this.request = request;
    }

    String getFieldValue(String field) {
        return request.getParameter(field);
    }
}
