package com.example.web;

import java.io.IOException;
import java.util.Base64;
import java.security.SecureRandom;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.Cookie;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

// A SecureRandom fills the buffer: the remember-me key cannot be guessed.
@WebServlet("/remember-me")
class RememberMeServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        byte[] raw = new byte[18];
        new SecureRandom().nextBytes(raw);
        String key = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        Cookie remember = new Cookie("remember", key); // SINK
        remember.setSecure(true);
        remember.setHttpOnly(true);
        response.addCookie(remember);
    }
}
