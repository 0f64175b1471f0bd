package com.example.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

// An AES key for a GCM cipher: "AES" names the key type, not a mode.
@WebServlet("/draft-seal")
class DraftSealServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        try {
            SecretKey key = KeyGenerator.getInstance("AES").generateKey(); // SINK
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            byte[] nonce = new byte[12];
            new java.security.SecureRandom().nextBytes(nonce);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
            byte[] sealed = cipher.doFinal(request.getParameter("draft").getBytes(StandardCharsets.UTF_8));
            response.getOutputStream().write(sealed);
        } catch (Exception e) {
            throw new ServletException(e);
        }
    }
}
