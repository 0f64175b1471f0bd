package com.example.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

// A bare "AES" cipher runs in the provider's default mode, ECB.
@WebServlet("/draft-seal")
class DraftSealServlet extends HttpServlet {
    private SecretKey key;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        try {
            Cipher cipher = Cipher.getInstance("AES"); // SINK
            cipher.init(Cipher.ENCRYPT_MODE, key);
            byte[] sealed = cipher.doFinal(request.getParameter("draft").getBytes(StandardCharsets.UTF_8));
            response.getOutputStream().write(sealed);
        } catch (Exception e) {
            throw new ServletException(e);
        }
    }
}
