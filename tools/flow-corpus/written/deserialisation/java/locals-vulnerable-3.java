package com.example.web;

import java.io.IOException;
import java.io.ObjectInputStream;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

@WebServlet("/session-restore")
class SessionRestoreServlet extends HttpServlet {
    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        ObjectInputStream in = new ObjectInputStream(request.getInputStream());
        try {
            int version = in.readInt();
            Object saved = in.readObject(); // SINK
            response.setStatus(saved != null && version > 0 ? 204 : 400);
        } catch (ClassNotFoundException e) {
            throw new ServletException(e);
        } finally {
            in.close();
        }
    }
}
