package com.example.web;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Random;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

// The generator is declared as Random but is a SecureRandom, and the helper draws from what it is handed.
@WebServlet("/one-time-code")
class OneTimeCodeServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        try {
            Random generator = SecureRandom.getInstance("SHA1PRNG");
            String code = Long.toString(draw(generator), 36);
            request.getSession().setAttribute("oneTimeCode", code); // SINK
        } catch (Exception e) {
            throw new ServletException(e);
        }
    }

    private long draw(Random source) {
        return Math.abs(source.nextLong());
    }
}
